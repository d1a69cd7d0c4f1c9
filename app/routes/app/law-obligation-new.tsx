import { data, Form, Link, redirect } from "react-router";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { lawObligationFormAction, lawObligationFormView } from "../../.server/triage/law-obligation-page";
import { FormAlert } from "../../components/app/form-field";
import { blockTitle, formatLawDate } from "../../components/app/laws/messages";
import { fill } from "../../components/app/messages";
import { FieldError, ObligationFields, triageMessages } from "../../components/app/triage/fields";
import type { Route } from "./+types/law-obligation-new";

export const handle = { layout: "bare" };

/** /app/laws/:id/obligations/new?block=&version=: record an obligation anchored to one article at one version. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const url = new URL(request.url);
  const view = await lawObligationFormView(
    context.get(servicesContext).api.database,
    member.organizationId,
    params.id,
    url.searchParams.get("block") ?? "",
    url.searchParams.get("version"),
  );
  // Another organisation's law, an unknown article or version: not found, as the law page.
  if (!view) throw data("Not found", { status: 404 });
  return { locale: appLocale(context), view };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const member = requireMember(context, "documents.read");
  const meta = requestMeta(request, context);
  const outcome = await lawObligationFormAction(
    {
      db: context.get(servicesContext).api.database.db,
      member,
      locale: appLocale(context),
      lawId: params.id,
      origin: { ip: meta.ip, userAgent: meta.userAgent },
    },
    await request.formData(),
  );
  if (!outcome) throw data("Not found", { status: 404 });
  if (outcome.ok) {
    throw redirect(`/app/obligations?law=${encodeURIComponent(params.id)}&recorded=${outcome.obligationId}`);
  }
  return data(outcome, { status: 422 });
}

export default function LawObligationNew({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, view } = loaderData;
  const t = triageMessages(locale);
  const l = t.lawObligation;
  const errors = actionData && !actionData.ok ? actionData.errors : {};
  const values = actionData && !actionData.ok ? actionData.values : undefined;
  const article = blockTitle(view.block.title, locale);
  const lawHref = `/app/laws/${encodeURIComponent(view.law.id)}?block=${encodeURIComponent(view.block.blockId)}#${view.block.anchor}`;
  return (
    <section aria-labelledby="law-obligation-heading" className="law-obligation-new">
      <p className="small mb-1">
        <Link to={lawHref}>{l.back}</Link>
      </p>
      <h1 id="law-obligation-heading" className="h3">
        {l.title}
      </h1>
      <p className="text-body-secondary">{l.lead}</p>
      <div className="row g-4">
        <div className="col-lg-7">
          <FormAlert kind="danger">{actionData && !actionData.ok ? t.panel.formError : undefined}</FormAlert>
          <FieldError id="lo-block" errors={errors.block ?? errors.version} />
          <Form method="post" noValidate>
            <input type="hidden" name="block" value={view.block.blockId} />
            <input type="hidden" name="version" value={view.version.normId} />
            <ObligationFields
              idPrefix="lo"
              people={view.people}
              locale={locale}
              values={values}
              errors={errors}
              fieldClassName="mb-2"
              buttonClassName="btn btn-primary"
            />
          </Form>
        </div>
        <div className="col-lg-5">
          <section className="card" aria-labelledby="law-obligation-anchor">
            <div className="card-body">
              <h2 id="law-obligation-anchor" className="h6 text-body-secondary mb-1">
                {l.anchoredTo}
              </h2>
              <p className="fw-semibold mb-1">{article}</p>
              <p className="small mb-2">{view.law.title}</p>
              <p className="small text-body-secondary">
                {fill(l.version, {
                  norm: view.version.normId,
                  published: formatLawDate(view.version.publishedOn, locale),
                })}
              </p>
              <h3 className="h6">{l.wording}</h3>
              <div className="small law-wording">
                {view.version.paragraphs.map((paragraph, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a wording's paragraphs never reorder
                  <p key={i}>{paragraph}</p>
                ))}
              </div>
            </div>
          </section>
        </div>
      </div>
    </section>
  );
}
