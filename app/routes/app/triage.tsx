import { data, Form } from "react-router";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { assigneeParam, parseTriageFilters, triageFiltersQuery } from "../../.server/triage/filters";
import { listTriage } from "../../.server/triage/list";
import { bulkTriageAction } from "../../.server/triage/page";
import { organisationGroups, organisationMembers } from "../../.server/triage/people";
import { CardTable } from "../../components/app/card-table";
import { areaLabel } from "../../components/app/documents/labels";
import { FormAlert } from "../../components/app/form-field";
import { fill } from "../../components/app/messages";
import {
  AssigneeOptions,
  formatDueDay,
  InputField,
  OverdueBadge,
  SelectField,
  triageMessages,
} from "../../components/app/triage/fields";
import type { TriageResult } from "../../components/app/triage/triage-panel";
import { plural } from "../../lib/plural";
import { areas as taxonomyAreas } from "../../lib/taxonomy";
import type { Route } from "./+types/triage";

export const handle = { layout: "bare" };

const statuses = ["new", "under_review", "applies", "does_not_apply", "in_progress", "done"] as const;

/** The organisation's triage list: filters in the URL (a GET form), pagination, bulk changes of the ticked rows. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const { db } = context.get(servicesContext).api.database;
  const filters = parseTriageFilters(new URL(request.url).searchParams);
  const [page, members, groups] = await Promise.all([
    listTriage(db, member, filters),
    organisationMembers(db, member.organizationId),
    organisationGroups(db, member.organizationId),
  ]);
  return {
    locale: appLocale(context),
    page,
    filters: { ...filters, assignee: assigneeParam(filters.assignee) },
    links: {
      previous: page.page > 1 ? `/app/triage${triageFiltersQuery(filters, page.page - 1)}` : null,
      next: page.page < page.pageCount ? `/app/triage${triageFiltersQuery(filters, page.page + 1)}` : null,
    },
    people: { members: members.map((m) => ({ id: m.id, name: m.name })), groups },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "documents.read");
  const meta = requestMeta(request, context);
  const outcome = await bulkTriageAction(
    {
      db: context.get(servicesContext).api.database.db,
      member,
      locale: appLocale(context),
      origin: { ip: meta.ip, userAgent: meta.userAgent },
    },
    await request.formData(),
  );
  return data(outcome, { status: "status" in outcome ? outcome.status : 200 });
}

export default function TriageList({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, page, filters, links, people } = loaderData;
  const t = triageMessages(locale);
  const l = t.list;
  const result = actionData as TriageResult | undefined;
  // An empty list without filters is an empty queue, not a filter that found nothing.
  const filtered =
    filters.statuses.length > 0 ||
    filters.assignee !== "" ||
    filters.area !== null ||
    filters.dueFrom !== null ||
    filters.dueTo !== null ||
    filters.overdue;
  const failed = result && "form" in result ? result : undefined;
  const done = result && "ok" in result ? plural(locale, l.bulkDone, result.count ?? 0) : undefined;
  const sortedAreas = [...taxonomyAreas].sort((a, b) => a.name[locale].localeCompare(b.name[locale], locale));
  return (
    <section aria-labelledby="triage-heading">
      <h1 id="triage-heading" className="h3">
        {l.title}
      </h1>
      <p className="text-body-secondary">{l.lead}</p>
      <details className="mb-3" open>
        <summary className="mb-2">{l.filters}</summary>
        <form method="get" action="/app/triage" className="row g-2 align-items-end" aria-label={l.filters}>
          <SelectField
            id="f-status"
            name="status"
            label={t.fields.status}
            value={filters.statuses[0] ?? ""}
            className="col-sm-6 col-lg-2"
          >
            <option value="">{l.anyStatus}</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {t.statuses[s]}
              </option>
            ))}
          </SelectField>
          <SelectField
            id="f-assignee"
            name="assignee"
            label={t.fields.assignee}
            value={filters.assignee}
            className="col-sm-6 col-lg-2"
          >
            <option value="">{l.anyAssignee}</option>
            <option value="me">{l.me}</option>
            <option value="none">{l.unassigned}</option>
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
          <SelectField id="f-area" name="area" label={l.area} value={filters.area ?? ""} className="col-sm-6 col-lg-2">
            <option value="">{l.anyArea}</option>
            {sortedAreas.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name[locale]}
              </option>
            ))}
          </SelectField>
          <InputField
            id="f-from"
            name="due_from"
            type="date"
            label={l.dueFrom}
            value={filters.dueFrom ?? ""}
            className="col-sm-6 col-lg-2"
          />
          <InputField
            id="f-to"
            name="due_to"
            type="date"
            label={l.dueTo}
            value={filters.dueTo ?? ""}
            className="col-sm-6 col-lg-2"
          />
          <div className="col-sm-6 col-lg-2 mb-2">
            <div className="form-check">
              <input
                className="form-check-input"
                type="checkbox"
                id="f-overdue"
                name="overdue"
                value="1"
                defaultChecked={filters.overdue}
              />
              <label className="form-check-label small" htmlFor="f-overdue">
                {l.overdueOnly}
              </label>
            </div>
          </div>
          <div className="col-12 d-flex gap-2">
            <button type="submit" className="btn btn-primary btn-sm">
              {l.apply}
            </button>
            <a href="/app/triage" className="btn btn-link btn-sm">
              {l.reset}
            </a>
          </div>
        </form>
      </details>
      <FormAlert kind="success">{done}</FormAlert>
      <FormAlert kind="danger">{failed ? Object.values(failed.errors).flat().join(" ") : undefined}</FormAlert>
      <p className="small text-body-secondary" data-testid="triage-count">
        {plural(locale, l.count, page.total)}
      </p>
      {page.items.length === 0 ? (
        <p data-testid="triage-empty">{filtered ? l.empty : l.emptyNone}</p>
      ) : (
        <Form method="post" noValidate>
          <div className="table-responsive">
            <CardTable
              labels={["", l.document, t.fields.status, t.fields.assignee, t.fields.dueOn, t.fields.impact]}
              className="table table-sm small align-top"
              data-testid="triage-list"
            >
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">{l.selectAll}</span>
                  </th>
                  <th scope="col">{l.document}</th>
                  <th scope="col">{t.fields.status}</th>
                  <th scope="col">{t.fields.assignee}</th>
                  <th scope="col">{t.fields.dueOn}</th>
                  <th scope="col">{t.fields.impact}</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((item) => (
                  <tr key={item.documentId} data-testid="triage-row">
                    <td>
                      <input
                        className="form-check-input"
                        type="checkbox"
                        name="documentId"
                        value={item.documentId}
                        id={`row-${item.documentId}`}
                        aria-label={fill(l.select, { title: item.sourceId })}
                      />
                    </td>
                    <td>
                      <a href={`/app/documents/${item.documentId}`}>{item.title}</a>
                      <span className="d-block text-body-secondary">
                        {item.sourceId}
                        {item.areas.length ? ` · ${item.areas.map((a) => areaLabel(a, locale)).join(", ")}` : ""}
                      </span>
                    </td>
                    <td>{t.statuses[item.status]}</td>
                    <td>{item.assignee ? item.assignee.name : t.fields.noAssignee}</td>
                    <td className="text-nowrap">
                      {formatDueDay(item.dueOn, locale)}
                      {item.overdue ? <OverdueBadge locale={locale} /> : null}
                    </td>
                    <td>{item.impact ? t.impacts[item.impact] : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </CardTable>
          </div>
          <fieldset className="border rounded p-2 mb-3">
            <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-0">{l.bulkHeading}</legend>
            <input type="hidden" name="intent" value="triage.bulk" />
            <div className="row g-2 align-items-end">
              <SelectField
                id="bulk-field"
                name="field"
                label={l.bulkField}
                value="status"
                className="col-sm-3"
                errors={failed?.errors.field}
              >
                <option value="status">{l.bulkStatus}</option>
                <option value="assignee">{l.bulkAssignee}</option>
                <option value="dueOn">{l.bulkDue}</option>
              </SelectField>
              <SelectField
                id="bulk-status"
                name="status"
                label={l.bulkStatus}
                value="under_review"
                className="col-sm-3"
              >
                {statuses.map((s) => (
                  <option key={s} value={s}>
                    {t.statuses[s]}
                  </option>
                ))}
              </SelectField>
              <SelectField id="bulk-assignee" name="assignee" label={l.bulkAssignee} value="" className="col-sm-3">
                <AssigneeOptions people={people} locale={locale} />
              </SelectField>
              <InputField id="bulk-due" name="dueOn" type="date" label={l.bulkDue} value="" className="col-sm-3" />
              <div className="col-12">
                <button type="submit" className="btn btn-primary btn-sm">
                  {l.bulkApply}
                </button>
              </div>
            </div>
          </fieldset>
        </Form>
      )}
      {page.pageCount > 1 ? (
        <nav aria-label={l.pagination}>
          <ul className="pagination pagination-sm">
            <li className={`page-item${links.previous ? "" : " disabled"}`}>
              {links.previous ? (
                <a className="page-link" href={links.previous}>
                  {l.previous}
                </a>
              ) : (
                <span className="page-link">{l.previous}</span>
              )}
            </li>
            <li className="page-item active" aria-current="page">
              <span className="page-link">{fill(l.page, { page: page.page, pages: page.pageCount })}</span>
            </li>
            <li className={`page-item${links.next ? "" : " disabled"}`}>
              {links.next ? (
                <a className="page-link" href={links.next}>
                  {l.next}
                </a>
              ) : (
                <span className="page-link">{l.next}</span>
              )}
            </li>
          </ul>
        </nav>
      ) : null}
    </section>
  );
}
