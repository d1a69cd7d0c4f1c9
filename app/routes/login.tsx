import { data, redirect } from "react-router";
import { servicesContext } from "../.server/context";
import { SvgIcon } from "../components/ui/icons";
import { legalTexts as en } from "../content/legal/en";
import { legalTexts as es } from "../content/legal/es";
import { shellMessagesFor } from "../i18n/shell";
import { pagePath } from "../lib/site";
import type { Route } from "./+types/login";

export function loader({ params, request, context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  if (params.lang === "es") throw redirect("/login", 308);
  if (params.lang !== undefined && params.lang !== "en") {
    throw data(`Page not found: ${new URL(request.url).pathname}`, { status: 404 });
  }
  if (config.platformUrl) throw redirect(config.platformUrl, 302);
  return { lang: params.lang === "en" ? ("en" as const) : ("es" as const) };
}

const pointIcons = ["groups", "mfa", "login"] as const;

/** How customers reach the platform; there is deliberately no sign-in form here. */
export default function Login({ loaderData }: Route.ComponentProps) {
  const { lang } = loaderData;
  const t = (lang === "en" ? en : es).login;
  const title = shellMessagesFor(lang).legal.login.title;
  return (
    <div className="container py-5 login-page">
      <div className="row justify-content-center">
        <div className="col-lg-8">
          <h1 className="mb-3">{title}</h1>
          <p className="lead text-body-secondary">{t.lead}</p>
          <ul className="list-unstyled my-5">
            {t.points.map((point, index) => (
              <li key={point.title} className="d-flex gap-3 mb-4">
                <span className="feature-icon flex-shrink-0">
                  <SvgIcon name={pointIcons[index] ?? "check"} />
                </span>
                <div>
                  <h2 className="h5 mb-1">{point.title}</h2>
                  <p className="text-body-secondary mb-0">{point.text}</p>
                </div>
              </li>
            ))}
          </ul>
          <section className="cta-panel" aria-labelledby="login-cta">
            <h2 id="login-cta" className="h4">
              {t.ctaTitle}
            </h2>
            <p>{t.ctaText}</p>
            <a className="btn btn-primary" href={pagePath("home", lang, "contact")}>
              {t.cta}
              <SvgIcon name="arrowRight" size={18} className="ms-2" />
            </a>
          </section>
        </div>
      </div>
    </div>
  );
}
