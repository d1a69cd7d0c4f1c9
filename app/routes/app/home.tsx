import { data } from "react-router";
import { appLocale, requireMember } from "../../.server/auth/guard";
import { can } from "../../.server/auth/permissions";
import { requestContext, servicesContext } from "../../.server/context";
import { sourcesNotice } from "../../.server/sources/admin";
import { sourceChoices } from "../../.server/sources/registry";
import { myWork } from "../../.server/triage/list";
import { ResultList } from "../../components/app/documents/result-list";
import { SearchFilters } from "../../components/app/documents/search-filters";
import { FollowLawForms } from "../../components/app/laws/amends-laws";
import { appMessages, fill, formatDateTime } from "../../components/app/messages";
import { MyWork } from "../../components/app/triage/my-work";
import { plural } from "../../lib/plural";
import type { Route } from "./+types/home";
import { filtersInUrl, rememberedFilters, rememberFiltersCookie, unreadAlerts } from "./home.server";
import { filtersQuery, parseSearchParams, runSearch } from "./search.server";

export const handle = { layout: "bare" };

/**
 * The latest documents with the member's filters (a GET form: filters in the URL are applied and
 * remembered; without any, the remembered ones apply) and their unread alerts.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const locale = appLocale(context);
  const url = new URL(request.url);
  const chosen = filtersInUrl(url.searchParams);
  const filters = chosen ?? rememberedFilters(request.headers.get("cookie"), member.userId);
  const parsed = parseSearchParams(new URLSearchParams(filtersQuery(filters)), locale, 10);
  const database = context.get(servicesContext).api.database;
  const outcome = parsed.query
    ? await runSearch(database, member.organizationId, parsed.query, { facets: true })
    : null;
  const latest = outcome && outcome !== "bad-cursor" ? outcome : null;
  const payload = {
    locale,
    name: member.name,
    organization: member.organizationName,
    filters: parsed.values,
    filtered: Object.keys(parsed.values).length > 0,
    errors: parsed.errors,
    documents: latest?.items ?? [],
    facets: latest?.facets ?? null,
    searchHref: `/app/search${filtersQuery(parsed.values)}`,
    alerts: await unreadAlerts(database.db, member.userId),
    work: await myWork(database.db, member),
    sources: await sourcesNotice(
      database.db,
      member.organizationId,
      (context.get(servicesContext).config?.sources.ingest.length ?? 0) > 0,
    ),
    canManageSources: can(member, "sources.manage"),
    sourceChoices: sourceChoices(locale),
  };
  // Only valid filters chosen in the URL are remembered.
  if (chosen && parsed.query) {
    const secure = context.get(requestContext).secure;
    return data(payload, { headers: { "set-cookie": rememberFiltersCookie(parsed.values, member.userId, secure) } });
  }
  return payload;
}

export default function AppHome({ loaderData }: Route.ComponentProps) {
  const { locale, filters, filtered, errors, documents, facets, searchHref, alerts, sources } = loaderData;
  const app = appMessages(locale);
  const t = app.docs.home;
  const n = app.docs.notices;
  const failingNames = sources.failing.map((s) => s.name ?? s.labels[locale]).join(", ");
  const sourcesLink = loaderData.canManageSources ? (
    <>
      {" "}
      {n.failingAdmin} <a href="/app/admin/sources">{n.sourcesLink}</a>
    </>
  ) : null;
  return (
    <>
      <h1 className="h3">{fill(app.home.welcome, { name: loaderData.name })}</h1>
      <p className="text-body-secondary">{fill(app.home.lead, { organization: loaderData.organization })}</p>
      {sources.failing.length > 0 ? (
        <div className="alert alert-warning" role="status" data-testid="sources-failing">
          {fill(n.failing, { sources: failingNames })}
          {sourcesLink}
        </div>
      ) : null}
      {sources.loading ? (
        <div className="alert alert-info" role="status" data-testid="sources-loading">
          {sources.loading.daysTotal > 0
            ? plural(locale, n.loading, sources.loading.daysTotal, { done: String(sources.loading.daysDone) })
            : n.loadingFirst}
          {loaderData.canManageSources ? (
            <>
              {" "}
              <a href="/app/admin/sources">{n.sourcesLink}</a>
            </>
          ) : null}
        </div>
      ) : null}
      <MyWork items={loaderData.work} locale={locale} />
      <div className="row g-3 mt-1">
        <section className="col-lg-8" aria-labelledby="home-documents">
          <div className="card h-100">
            <div className="card-body">
              <h2 id="home-documents" className="h5">
                {t.latest}
              </h2>
              <p className="small text-body-secondary">{t.latestLead}</p>
              <details className="mb-3" open={filtered || Object.keys(errors).length > 0}>
                <summary className="mb-2">{app.docs.search.filters}</summary>
                <form method="get" action="/app" noValidate>
                  <div className="row row-cols-1 row-cols-sm-2 row-cols-xl-3 g-2">
                    <SearchFilters
                      locale={locale}
                      values={filters}
                      facets={facets}
                      errors={errors}
                      idPrefix="home"
                      sources={loaderData.sourceChoices}
                      fields={["source", "area", "jurisdiction", "kind", "relevance"]}
                      wrap="col"
                    />
                  </div>
                  <div className="d-flex flex-wrap gap-2">
                    <button type="submit" className="btn btn-primary btn-sm">
                      {t.apply}
                    </button>
                    <a href="/app?source=" className="btn btn-link btn-sm">
                      {t.reset}
                    </a>
                  </div>
                </form>
              </details>
              {documents.length > 0 ? (
                <>
                  <ResultList items={documents} locale={locale} testId="new-documents" />
                  <FollowLawForms items={documents} />
                  <p className="mt-3 mb-0">
                    <a href={searchHref}>{t.more}</a>
                  </p>
                </>
              ) : (
                <>
                  <ul className="list-unstyled mb-0" data-testid="new-documents" />
                  <p className="text-body-secondary mb-0">{filtered ? t.empty : app.home.emptyDocuments}</p>
                </>
              )}
            </div>
          </div>
        </section>
        <section className="col-lg-4" aria-labelledby="home-alerts">
          <div className="card h-100">
            <div className="card-body">
              <h2 id="home-alerts" className="h5">
                {t.alerts}
              </h2>
              <ul className="list-unstyled mb-0" data-testid="unread-alerts">
                {alerts.map((alert) => (
                  <li key={alert.id} className="border-bottom py-2">
                    <a href={`/app/documents/${alert.documentId}`}>{alert.title}</a>
                    <span className="d-block small text-body-secondary">
                      {fill(t.alertAt, { date: formatDateTime(alert.createdAt, locale) })}
                    </span>
                  </li>
                ))}
              </ul>
              {alerts.length === 0 ? <p className="text-body-secondary mb-0">{t.noAlerts}</p> : null}
            </div>
          </div>
        </section>
      </div>
    </>
  );
}
