import { data } from "react-router";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { exportEvidencePack, notFoundText, parseEvidenceScope, scopeErrorText } from "../../.server/evidence/export";
import { organisationNames } from "../../.server/evidence/names";
import evidenceStyles from "../../components/app/evidence/evidence.scss?url";
import { EvidencePackView } from "../../components/app/evidence/evidence-pack";
import { evidenceMessages } from "../../components/app/evidence/messages";
import type { Route } from "./+types/evidence";
import { viewerOf } from "./document.server";

export const handle = { layout: "bare" };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: evidenceStyles }];

/**
 * Admins (and owners): the evidence pack holds every member's reads and the audit excerpt, as the
 * audit export does, so it takes the same permission. Showing a pack is an export: audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "audit.export");
  const locale = appLocale(context);
  const params = new URL(request.url).searchParams;
  const query = { document: params.get("document") ?? "", from: params.get("from") ?? "", to: params.get("to") ?? "" };
  const base = { locale, query, pack: null, names: {}, error: null, fieldErrors: {} };
  if (!query.document && !query.from && !query.to) return base;
  const parsed = parseEvidenceScope(params, locale);
  if (!parsed.ok)
    return data(
      { ...base, error: scopeErrorText(parsed.fieldErrors, locale), fieldErrors: parsed.fieldErrors },
      { status: 422 },
    );
  const database = context.get(servicesContext).api.database;
  const meta = requestMeta(request, context);
  const viewer = await viewerOf(database.db, member);
  const pack = await exportEvidencePack(database, viewer, parsed.scope, {
    ip: meta.ip,
    userAgent: meta.userAgent,
    via: "page",
  });
  // An unknown id (or one outside the organisation's reach): the form again, saying so, with a 404.
  if (!pack) return data({ ...base, error: notFoundText(locale), fieldErrors: {} }, { status: 404 });
  return { ...base, pack, names: await organisationNames(database, member.organizationId) };
}

export default function Evidence({ loaderData }: Route.ComponentProps) {
  const { locale, query, pack, names, error, fieldErrors } = loaderData;
  const t = evidenceMessages(locale).pack;
  const errorsOf = (field: string) => (fieldErrors as Record<string, string[]>)[field];
  const exportQuery = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== ""));
  const jsonHref = `/app/evidence/export?${exportQuery.toString()}`;
  exportQuery.set("format", "pdf");
  const pdfHref = `/app/evidence/export?${exportQuery.toString()}`;
  return (
    <div className="evidence-page">
      <h1 className="h3">{t.title}</h1>
      <p className="text-body-secondary evidence-screen-only">{t.lead}</p>
      <form method="get" className="evidence-screen-only mb-4" noValidate>
        {error ? (
          <div className="alert alert-danger" role="alert">
            {error}
          </div>
        ) : null}
        <div className="row g-3 align-items-end">
          <div className="col-md-4">
            <label htmlFor="evidence-document" className="form-label">
              {t.documentId}
            </label>
            <input
              id="evidence-document"
              name="document"
              className={`form-control${errorsOf("document") ? " is-invalid" : ""}`}
              defaultValue={query.document}
              aria-describedby="evidence-document-hint"
              aria-invalid={errorsOf("document") ? true : undefined}
            />
            <div id="evidence-document-hint" className="form-text">
              {t.documentHint}
            </div>
          </div>
          <div className="col-6 col-md-3">
            <label htmlFor="evidence-from" className="form-label">
              {t.from}
            </label>
            <input
              id="evidence-from"
              name="from"
              type="date"
              className={`form-control${errorsOf("from") ? " is-invalid" : ""}`}
              defaultValue={query.from}
              aria-invalid={errorsOf("from") ? true : undefined}
            />
          </div>
          <div className="col-6 col-md-3">
            <label htmlFor="evidence-to" className="form-label">
              {t.to}
            </label>
            <input
              id="evidence-to"
              name="to"
              type="date"
              className={`form-control${errorsOf("to") ? " is-invalid" : ""}`}
              defaultValue={query.to}
              aria-invalid={errorsOf("to") ? true : undefined}
            />
          </div>
          <div className="col-md-2">
            <button type="submit" className="btn btn-primary w-100">
              {t.show}
            </button>
          </div>
        </div>
      </form>
      {pack ? (
        <>
          <p className="evidence-screen-only">
            <a className="btn btn-primary btn-sm me-2" href={pdfHref} download data-testid="evidence-pdf">
              {t.downloadPdf}
            </a>
            <a className="btn btn-outline-primary btn-sm me-2" href={jsonHref} download>
              {t.downloadJson}
            </a>
            <span className="small text-body-secondary">{t.print}</span>
          </p>
          <EvidencePackView locale={locale} pack={pack} names={names} />
        </>
      ) : null}
    </div>
  );
}
