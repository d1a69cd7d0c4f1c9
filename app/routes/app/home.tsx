import { appLocale, requireMember } from "../../.server/auth/guard";
import { appMessages, fill } from "../../components/app/messages";
import type { Route } from "./+types/home";

export const handle = { layout: "bare" };

export function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "app.use");
  return { locale: appLocale(context), name: member.name, organization: member.organizationName };
}

/** The signed-in home: new documents and unread alerts arrive with the sources (both lists empty until then). */
export default function AppHome({ loaderData }: Route.ComponentProps) {
  const t = appMessages(loaderData.locale);
  return (
    <>
      <h1 className="h3">{fill(t.home.welcome, { name: loaderData.name })}</h1>
      <p className="text-body-secondary">{fill(t.home.lead, { organization: loaderData.organization })}</p>
      <div className="row g-4 mt-1">
        <section className="col-md-6" aria-labelledby="home-documents">
          <div className="card h-100">
            <div className="card-body">
              <h2 id="home-documents" className="h5">
                {t.home.documents}
              </h2>
              <ul className="list-unstyled mb-0" data-testid="new-documents" />
              <p className="text-body-secondary mb-0">{t.home.emptyDocuments}</p>
            </div>
          </div>
        </section>
        <section className="col-md-6" aria-labelledby="home-alerts">
          <div className="card h-100">
            <div className="card-body">
              <h2 id="home-alerts" className="h5">
                {t.home.alerts}
              </h2>
              <ul className="list-unstyled mb-0" data-testid="unread-alerts" />
              <p className="text-body-secondary mb-0">{t.home.emptyAlerts}</p>
            </div>
          </div>
        </section>
      </div>
    </>
  );
}
