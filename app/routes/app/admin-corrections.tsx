import { appLocale, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { listCorrections } from "../../.server/documents/corrections";
import { CardTable } from "../../components/app/card-table";
import { correctionMessages } from "../../components/app/documents/document-corrections";
import { areaLabel } from "../../components/app/documents/labels";
import { formatDateTime } from "../../components/app/messages";
import type { Route } from "./+types/admin-corrections";

export const handle = { layout: "bare" };

/** Admins: the organisation's corrections of areas, newest first (the latest 200), with the export links. */
export async function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "corrections.export");
  const { db } = context.get(servicesContext).api.database;
  return { locale: appLocale(context), corrections: await listCorrections(db, member.organizationId, { limit: 200 }) };
}

export default function AdminCorrections({ loaderData }: Route.ComponentProps) {
  const { locale, corrections } = loaderData;
  const t = correctionMessages(locale);
  return (
    <section aria-labelledby="corrections-heading">
      <h1 id="corrections-heading" className="h3">
        {t.adminHeading}
      </h1>
      <p className="text-body-secondary">{t.adminLead}</p>
      <p>
        <a className="btn btn-outline-primary btn-sm me-2" href="/app/admin/corrections/export?format=csv">
          {t.exportCsv}
        </a>
        <a className="btn btn-outline-primary btn-sm" href="/app/admin/corrections/export?format=json">
          {t.exportJson}
        </a>
      </p>
      {corrections.length === 0 ? (
        <p>{t.adminEmpty}</p>
      ) : (
        <div className="table-responsive">
          <CardTable
            className="table table-sm small align-top"
            data-testid="corrections"
            labels={[
              t.columns.document,
              t.columns.area,
              t.columns.action,
              t.columns.reason,
              t.columns.by,
              t.columns.at,
            ]}
          >
            <thead>
              <tr>
                <th scope="col">{t.columns.document}</th>
                <th scope="col">{t.columns.area}</th>
                <th scope="col">{t.columns.action}</th>
                <th scope="col">{t.columns.reason}</th>
                <th scope="col">{t.columns.by}</th>
                <th scope="col">{t.columns.at}</th>
              </tr>
            </thead>
            <tbody>
              {corrections.map((c) => (
                <tr key={c.id}>
                  <td>
                    <a href={`/app/documents/${c.documentId}`}>{c.sourceId}</a>
                    <span className="d-block text-body-secondary">{c.title}</span>
                  </td>
                  <td>{areaLabel(c.area, locale)}</td>
                  <td>{t.actions[c.action]}</td>
                  <td>{c.reason}</td>
                  <td>{c.by.name}</td>
                  <td className="text-nowrap">{formatDateTime(c.at, locale)}</td>
                </tr>
              ))}
            </tbody>
          </CardTable>
        </div>
      )}
    </section>
  );
}
