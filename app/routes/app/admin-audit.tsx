import { Form } from "react-router";
import { InvalidCursorError, listAuditEvents } from "../../.server/audit/query";
import { verifyAuditChain } from "../../.server/audit/verify";
import { auditFiltersFrom } from "../../.server/auth/audit-filters";
import { appLocale, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { AuditAction, auditObjectText } from "../../components/app/audit-action";
import { CardTable } from "../../components/app/card-table";
import { appMessages, fill, formatDateTime } from "../../components/app/messages";
import { plural } from "../../lib/plural";
import type { Route } from "./+types/admin-audit";

export const handle = { layout: "bare" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "audit.view");
  const url = new URL(request.url);
  const { raw, ...filters } = auditFiltersFrom(url.searchParams);
  const db = context.get(servicesContext).api.database.db;
  const page = await listAuditEvents(db, member.organizationId, filters).catch((error: unknown) => {
    if (error instanceof InvalidCursorError)
      return listAuditEvents(db, member.organizationId, { ...filters, cursor: undefined });
    throw error;
  });
  const verification = url.searchParams.has("verify") ? await verifyAuditChain(db, member.organizationId) : null;
  const query = new URLSearchParams(Object.entries(raw).filter(([, value]) => value !== ""));
  return {
    locale: appLocale(context),
    filters: raw,
    query: query.toString(),
    verification,
    nextCursor: page.nextCursor,
    events: page.items.map((event) => ({
      id: event.id,
      at: event.at.toISOString(),
      // No actor: the platform itself (a review opened by a law's new wording, a job).
      actor: event.actor?.email || event.actor?.id || appMessages(appLocale(context)).audit.system,
      action: event.action,
      object: auditObjectText(event.object, appLocale(context)),
    })),
  };
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { locale, filters, events, verification, nextCursor, query } = loaderData;
  const t = appMessages(locale);
  const withQuery = (extra: Record<string, string>) => {
    const params = new URLSearchParams(query);
    for (const [key, value] of Object.entries(extra)) params.set(key, value);
    return params.toString();
  };
  return (
    <>
      <h1 className="h3">{t.audit.title}</h1>
      <p className="text-body-secondary">{t.audit.lead}</p>
      {verification ? (
        <div
          className={`alert ${verification.valid ? "alert-success" : "alert-danger"}`}
          role="status"
          data-testid="verification"
        >
          {verification.valid
            ? plural(locale, t.audit.valid, verification.events)
            : verification.firstBroken
              ? fill(t.audit.broken, { id: verification.firstBroken })
              : fill(t.audit.brokenHead, { reason: verification.reason ?? "?" })}
        </div>
      ) : null}
      <Form method="get" className="row g-2 align-items-end mb-3">
        <div className="col-6 col-md-2">
          <label htmlFor="audit-from" className="form-label">
            {t.audit.from}
          </label>
          <input id="audit-from" name="from" type="date" defaultValue={filters.from} className="form-control" />
        </div>
        <div className="col-6 col-md-2">
          <label htmlFor="audit-to" className="form-label">
            {t.audit.to}
          </label>
          <input id="audit-to" name="to" type="date" defaultValue={filters.to} className="form-control" />
        </div>
        <div className="col-md-3">
          <label htmlFor="audit-actor" className="form-label">
            {t.audit.actor}
          </label>
          <input id="audit-actor" name="actor" defaultValue={filters.actor} className="form-control" />
        </div>
        <div className="col-md-3">
          <label htmlFor="audit-action" className="form-label">
            {t.audit.action}
          </label>
          <input
            id="audit-action"
            name="action"
            defaultValue={filters.action}
            placeholder="member.*"
            className="form-control"
          />
        </div>
        <div className="col-md-2">
          <button type="submit" className="btn btn-primary w-100">
            {t.audit.filter}
          </button>
        </div>
      </Form>
      <div className="d-flex flex-wrap gap-2 mb-3">
        <a
          className="btn btn-outline-secondary btn-sm"
          href={`/app/admin/audit/export?${withQuery({ format: "csv" })}`}
        >
          {t.audit.exportCsv}
        </a>
        <a
          className="btn btn-outline-secondary btn-sm"
          href={`/app/admin/audit/export?${withQuery({ format: "json" })}`}
        >
          {t.audit.exportJson}
        </a>
        <a className="btn btn-outline-primary btn-sm" href={`/app/admin/audit?${withQuery({ verify: "1" })}`}>
          {t.audit.verify}
        </a>
      </div>
      {events.length === 0 ? <p className="text-body-secondary">{t.audit.none}</p> : null}
      <div className="table-responsive">
        <CardTable
          labels={[t.audit.at, t.audit.actor, t.audit.action, t.audit.object]}
          className="table table-sm align-middle"
        >
          <thead>
            <tr>
              <th scope="col">{t.audit.at}</th>
              <th scope="col">{t.audit.actor}</th>
              <th scope="col">{t.audit.action}</th>
              <th scope="col">{t.audit.object}</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id} data-testid="audit-row">
                <td className="small text-nowrap">{formatDateTime(event.at, locale)}</td>
                <td className="small text-break">{event.actor}</td>
                <td>
                  <AuditAction action={event.action} locale={locale} />
                </td>
                <td className="small text-break">{event.object}</td>
              </tr>
            ))}
          </tbody>
        </CardTable>
      </div>
      {nextCursor ? (
        <a className="btn btn-outline-secondary btn-sm" href={`/app/admin/audit?${withQuery({ cursor: nextCursor })}`}>
          {t.audit.more}
        </a>
      ) : null}
    </>
  );
}
