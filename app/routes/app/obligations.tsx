import { appLocale, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { listObligations, parseObligationFilters } from "../../.server/triage/obligations";
import { organisationGroups, organisationMembers } from "../../.server/triage/people";
import { CardTable } from "../../components/app/card-table";
import { FormAlert } from "../../components/app/form-field";
import { blockTitle } from "../../components/app/laws/messages";
import { fill } from "../../components/app/messages";
import {
  formatDueDay,
  InputField,
  OverdueBadge,
  SelectField,
  triageMessages,
} from "../../components/app/triage/fields";
import type { Route } from "./+types/obligations";

export const handle = { layout: "bare" };

const statuses = ["open", "in_progress", "done", "not_applicable"] as const;

/** The organisation's register of obligations, filtered in the URL (a GET form), with the export links. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const { db } = context.get(servicesContext).api.database;
  const url = new URL(request.url);
  const filters = parseObligationFilters(url.searchParams);
  const [rows, members, groups] = await Promise.all([
    listObligations(db, member.organizationId, filters, { limit: 500 }),
    organisationMembers(db, member.organizationId),
    organisationGroups(db, member.organizationId),
  ]);
  const query = new URLSearchParams(url.searchParams);
  query.delete("format");
  const recorded = url.searchParams.get("recorded");
  query.delete("recorded");
  return {
    locale: appLocale(context),
    recorded: rows.find((row) => row.id === recorded) ?? null,
    rows,
    filters: { ...filters, owner: filters.owner ? `${filters.owner.type}:${filters.owner.id}` : "" },
    exportQuery: query.toString(),
    people: { members: members.map((m) => ({ id: m.id, name: m.name })), groups },
  };
}

export default function ObligationsRegister({ loaderData }: Route.ComponentProps) {
  const { locale, rows, filters, exportQuery, people, recorded } = loaderData;
  const t = triageMessages(locale);
  const r = t.register;
  const exportHref = (format: string) =>
    `/app/obligations/export?${exportQuery ? `${exportQuery}&` : ""}format=${format}`;
  return (
    <section aria-labelledby="register-heading">
      <h1 id="register-heading" className="h3">
        {r.title}
      </h1>
      <p className="text-body-secondary">{r.lead}</p>
      <FormAlert kind="success">
        {recorded?.law
          ? fill(t.lawObligation.saved, { article: blockTitle(recorded.law.blockTitle, locale) })
          : undefined}
      </FormAlert>
      <form method="get" action="/app/obligations" className="row g-2 align-items-end mb-3" aria-label={t.list.filters}>
        <SelectField
          id="o-status"
          name="status"
          label={t.fields.status}
          value={filters.statuses[0] ?? ""}
          className="col-sm-6 col-lg-3"
        >
          <option value="">{t.list.anyStatus}</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {t.obligationStatuses[s]}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="o-owner"
          name="owner"
          label={t.obligations.owner}
          value={filters.owner}
          className="col-sm-6 col-lg-3"
        >
          <option value="">{r.anyOwner}</option>
          <optgroup label={t.fields.members}>
            {people.members.map((m) => (
              <option key={m.id} value={`user:${m.id}`}>
                {m.name}
              </option>
            ))}
          </optgroup>
          {people.groups.length > 0 ? (
            <optgroup label={t.fields.groups}>
              {people.groups.map((g) => (
                <option key={g.id} value={`group:${g.id}`}>
                  {g.name}
                </option>
              ))}
            </optgroup>
          ) : null}
        </SelectField>
        <InputField
          id="o-from"
          name="due_from"
          type="date"
          label={t.list.dueFrom}
          value={filters.dueFrom ?? ""}
          className="col-sm-4 col-lg-2"
        />
        <InputField
          id="o-to"
          name="due_to"
          type="date"
          label={t.list.dueTo}
          value={filters.dueTo ?? ""}
          className="col-sm-4 col-lg-2"
        />
        <div className="col-sm-4 col-lg-2 mb-2">
          <div className="form-check">
            <input
              className="form-check-input"
              type="checkbox"
              id="o-overdue"
              name="overdue"
              value="1"
              defaultChecked={filters.overdue}
            />
            <label className="form-check-label small" htmlFor="o-overdue">
              {t.list.overdueOnly}
            </label>
          </div>
        </div>
        <div className="col-sm-4 col-lg-2 mb-2">
          <div className="form-check">
            <input
              className="form-check-input"
              type="checkbox"
              id="o-review"
              name="review"
              value="1"
              defaultChecked={filters.review}
            />
            <label className="form-check-label small" htmlFor="o-review">
              {r.reviewOnly}
            </label>
          </div>
        </div>
        {filters.lawId ? <input type="hidden" name="law" value={filters.lawId} /> : null}
        <div className="col-12 d-flex flex-wrap gap-2">
          <button type="submit" className="btn btn-primary btn-sm">
            {t.list.apply}
          </button>
          <a href="/app/obligations" className="btn btn-link btn-sm">
            {t.list.reset}
          </a>
          <a className="btn btn-outline-primary btn-sm ms-sm-auto" href={exportHref("csv")}>
            {r.exportCsv}
          </a>
          <a className="btn btn-outline-primary btn-sm" href={exportHref("json")}>
            {r.exportJson}
          </a>
        </div>
      </form>
      {rows.length === 0 ? (
        <p>{r.empty}</p>
      ) : (
        <div className="table-responsive">
          <CardTable
            labels={[
              t.obligations.title,
              r.document,
              t.obligations.owner,
              t.obligations.dueOn,
              t.obligations.status,
              t.obligations.reference,
            ]}
            className="table table-sm small align-top"
            data-testid="obligations-register"
          >
            <thead>
              <tr>
                <th scope="col">{t.obligations.title}</th>
                <th scope="col">{r.document}</th>
                <th scope="col">{t.obligations.owner}</th>
                <th scope="col">{t.obligations.dueOn}</th>
                <th scope="col">{t.obligations.status}</th>
                <th scope="col">{t.obligations.reference}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>
                    {row.title}
                    <span className="d-block text-body-secondary">
                      {row.excerpt.length > 120 ? `${row.excerpt.slice(0, 119)}…` : row.excerpt}
                    </span>
                  </td>
                  <td>
                    {row.law ? (
                      <>
                        <a href={row.law.href}>
                          {fill(r.article, { article: blockTitle(row.law.blockTitle, locale), law: row.law.id })}
                        </a>
                        <span className="d-block text-body-secondary">{row.law.title}</span>
                      </>
                    ) : (
                      <>
                        <a href={`/app/documents/${row.documentId}#${row.anchor}`}>{row.sourceId}</a>
                        <span className="d-block text-body-secondary">{row.documentTitle}</span>
                      </>
                    )}
                  </td>
                  <td>{row.owner ? row.owner.name : t.fields.noAssignee}</td>
                  <td className="text-nowrap">
                    {formatDueDay(row.dueOn, locale)}
                    {row.overdue ? <OverdueBadge locale={locale} /> : null}
                  </td>
                  <td>
                    {t.obligationStatuses[row.status]}
                    {row.reviewNeeded ? (
                      <span className="d-block">
                        <span className="badge text-bg-warning me-1">{r.reviewNeeded}</span>
                        <a href={`/app/obligations/${row.id}/review`}>
                          {r.review}
                          <span className="visually-hidden">: {row.title}</span>
                        </a>
                      </span>
                    ) : null}
                  </td>
                  <td>{row.reference || "—"}</td>
                </tr>
              ))}
            </tbody>
          </CardTable>
        </div>
      )}
    </section>
  );
}
