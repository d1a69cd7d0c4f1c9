import { appLocale, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { organisationGroups } from "../../.server/evidence/names";
import { overviewData, parseOverviewFilters } from "../../.server/evidence/overview";
import { areaLabel } from "../../components/app/documents/labels";
import evidenceStyles from "../../components/app/evidence/evidence.scss?url";
import { evidenceMessages } from "../../components/app/evidence/messages";
import { AreaWeekChart, DecisionChart, TriageChart } from "../../components/app/evidence/overview-charts";
import { areaIds } from "../../lib/taxonomy";
import type { Route } from "./+types/overview";

export const handle = { layout: "bare" };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: evidenceStyles }];

/** Every member: the organisation's own figures (triage is every member's work), server-rendered SVG, no script. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const locale = appLocale(context);
  const database = context.get(servicesContext).api.database;
  const groups = await organisationGroups(database, member.organizationId);
  const parsed = parseOverviewFilters(
    new URL(request.url).searchParams,
    locale,
    groups.map((g) => g.id),
  );
  const data = await overviewData(database, member.organizationId, parsed.filters);
  return {
    locale,
    groups,
    data,
    error: parsed.ok ? null : parsed.message,
    fieldErrors: parsed.ok ? {} : parsed.fieldErrors,
  };
}

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { locale, groups, data, error, fieldErrors } = loaderData;
  const t = evidenceMessages(locale).overview;
  const f = data.filters;
  const invalid = (field: string) => ((fieldErrors as Record<string, string[]>)[field] ? true : undefined);
  const groupNames = Object.fromEntries(groups.map((g) => [g.id, g.name]));
  return (
    <>
      <h1 className="h3">{t.title}</h1>
      <p className="text-body-secondary">{t.lead}</p>
      <form method="get" className="card card-body mb-4" aria-labelledby="overview-filters" noValidate>
        <h2 id="overview-filters" className="h6">
          {t.filters}
        </h2>
        {error ? (
          <div className="alert alert-danger" role="alert">
            {error}
          </div>
        ) : null}
        <div className="row g-3 align-items-end">
          <div className="col-6 col-md-2">
            <label htmlFor="overview-from" className="form-label">
              {t.from}
            </label>
            <input
              id="overview-from"
              name="from"
              type="date"
              className="form-control"
              defaultValue={f.from}
              aria-invalid={invalid("from")}
            />
          </div>
          <div className="col-6 col-md-2">
            <label htmlFor="overview-to" className="form-label">
              {t.to}
            </label>
            <input
              id="overview-to"
              name="to"
              type="date"
              className="form-control"
              defaultValue={f.to}
              aria-invalid={invalid("to")}
            />
          </div>
          <div className="col-md-3">
            <label htmlFor="overview-area" className="form-label">
              {t.area}
            </label>
            <select id="overview-area" name="area" className="form-select" defaultValue={f.area ?? ""}>
              <option value="">{t.anyArea}</option>
              {areaIds.map((id) => (
                <option key={id} value={id}>
                  {areaLabel(id, locale)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-md-3">
            <label htmlFor="overview-group" className="form-label">
              {t.group}
            </label>
            <select id="overview-group" name="group" className="form-select" defaultValue={f.group ?? ""}>
              <option value="">{t.anyGroup}</option>
              {groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </div>
          <div className="col-12 d-flex flex-wrap gap-2">
            <button type="submit" className="btn btn-primary">
              {t.apply}
            </button>
            <a className="btn btn-link" href="/app/overview">
              {t.reset}
            </a>
          </div>
        </div>
      </form>
      <AreaWeekChart locale={locale} data={data.perArea} />
      <TriageChart locale={locale} data={data.triage} groupNames={groupNames} />
      <DecisionChart locale={locale} data={data.decision} />
    </>
  );
}
