import { data, Form } from "react-router";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import {
  createSavedSearch,
  listSavedSearches,
  maxSavedSearchesPerMember,
  normaliseFilters,
  savedFiltersSchema,
  savedSearchNameSchema,
  savedSearchPaths,
  selectsSomething,
} from "../../.server/searches/saved";
import { sourceChoices } from "../../.server/sources/registry";
import { ResultList } from "../../components/app/documents/result-list";
import { resultCount, SearchFilters } from "../../components/app/documents/search-filters";
import { FollowLawForms } from "../../components/app/laws/amends-laws";
import { appMessages, fill } from "../../components/app/messages";
import { savedMessages } from "../../components/app/saved/messages";
import type { Route } from "./+types/search";
import { filtersQuery, parseSearchParams, runSearch } from "./search.server";

export const handle = { layout: "bare" };

/** The URL is the state: a GET form, shareable links, cursor pages. Invalid parameters answer 422 with field errors. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const locale = appLocale(context);
  const parsed = parseSearchParams(new URL(request.url).searchParams, locale);
  const saved = await listSavedSearches(context.get(servicesContext).api.database.db, member);
  const base = {
    locale,
    sourceChoices: sourceChoices(locale),
    values: parsed.values,
    page: parsed.page,
    clearHref: `/app/search${filtersQuery({ q: parsed.values.q })}`,
    // A search selecting something can become an alert profile (previewed there) or a saved search.
    alertHref:
      parsed.query && selectsSomething(parsed.values)
        ? `/app/profiles/new${filtersQuery(parsed.values, { fromSearch: "1" })}`
        : null,
    saved: saved
      .slice(0, savedShown)
      .map((search) => ({ id: search.id, name: search.name, ...savedSearchPaths(search) })),
    savedMore: saved.length > savedShown,
  };
  if (!parsed.query) {
    return data(
      { ...base, errors: parsed.errors, items: [], total: null, facets: null, nextHref: null, firstHref: null },
      { status: 422 },
    );
  }
  const outcome = await runSearch(context.get(servicesContext).api.database, member.organizationId, parsed.query);
  if (outcome === "bad-cursor") {
    const t = appMessages(locale).docs.search;
    return data(
      {
        ...base,
        errors: { cursor: [t.invalid] } as Record<string, string[]>,
        items: [],
        total: null,
        facets: null,
        nextHref: null,
        firstHref: `/app/search${filtersQuery(parsed.values)}`,
      },
      { status: 422 },
    );
  }
  return {
    ...base,
    errors: {} as Record<string, string[]>,
    items: outcome.items,
    total: outcome.total,
    facets: outcome.facets,
    nextHref: outcome.nextCursor
      ? `/app/search${filtersQuery(parsed.values, { cursor: outcome.nextCursor, page: String(parsed.page + 1) })}`
      : null,
    firstHref: parsed.cursor ? `/app/search${filtersQuery(parsed.values)}` : null,
  };
}

/** How many saved searches the search page lists (the rest on /app/searches). */
const savedShown = 8;

/** intent=save-search: the URL's search (validated by the search's schema) saved under the typed name, audited. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "documents.read");
  const locale = appLocale(context);
  const t = savedMessages(locale).searches;
  const form = await request.formData();
  const name = savedSearchNameSchema.safeParse(form.get("name") ?? "");
  const filters = savedFiltersSchema.safeParse(parseSearchParams(new URL(request.url).searchParams, locale).values);
  if (!filters.success) return { saveError: t.errors.filters, savedName: null };
  if (!name.success) return { saveError: t.errors.name, savedName: null };
  const meta = requestMeta(request, context);
  const outcome = await createSavedSearch(
    context.get(servicesContext).api.database.db,
    member,
    { name: name.data, filters: normaliseFilters(filters.data) },
    { actor: { id: member.userId, email: member.email }, ip: meta.ip, userAgent: meta.userAgent },
  );
  if ("problem" in outcome)
    return { saveError: fill(t.errors[outcome.problem], { max: maxSavedSearchesPerMember }), savedName: null };
  return { saveError: null, savedName: outcome.saved.name };
}

export default function SearchPage({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, values, errors, items, total, facets, nextHref, firstHref, page, clearHref } = loaderData;
  const t = appMessages(locale).docs.search;
  const ts = savedMessages(locale).searches;
  const invalid = Object.keys(errors).length > 0;
  const qInvalid = (errors.q?.length ?? 0) > 0;
  return (
    <>
      <h1 className="h3">{t.title}</h1>
      <p className="text-body-secondary">{t.lead}</p>
      <search aria-label={t.title}>
        <form method="get" action="/app/search" noValidate>
          <div className="row g-2 align-items-end mb-3">
            <div className="col-md">
              <label htmlFor="search-q" className="form-label">
                {t.q}
              </label>
              <input
                type="search"
                id="search-q"
                name="q"
                defaultValue={values.q ?? ""}
                maxLength={500}
                className={`form-control${qInvalid ? " is-invalid" : ""}`}
                aria-describedby={qInvalid ? "search-q-hint search-q-error" : "search-q-hint"}
                aria-invalid={qInvalid || undefined}
              />
              {qInvalid ? (
                <div id="search-q-error" className="invalid-feedback">
                  {errors.q?.join(" ")}
                </div>
              ) : null}
            </div>
            <div className="col-md-auto">
              <button type="submit" className="btn btn-primary w-100">
                {t.submit}
              </button>
            </div>
            <p id="search-q-hint" className="form-text mt-1 mb-0">
              {t.qHint}
            </p>
            {/* On phones the filters come first: a way past them. */}
            <p className="d-lg-none mt-2 mb-0">
              <a href="#search-results">{t.toResults}</a>
            </p>
          </div>
          <div className="row g-3">
            <div className="col-lg-3">
              <fieldset>
                <legend className="h6">{t.filters}</legend>
                <SearchFilters
                  locale={locale}
                  values={values}
                  facets={facets}
                  errors={errors}
                  idPrefix="search"
                  sources={loaderData.sourceChoices}
                  withSort
                />
                <button type="submit" className="btn btn-outline-primary btn-sm w-100 mb-2">
                  {t.submit}
                </button>
                <a href={clearHref} className="btn btn-link btn-sm w-100">
                  {t.clear}
                </a>
              </fieldset>
              <nav aria-labelledby="saved-searches-title" className="mt-3" data-testid="saved-searches">
                <h2 id="saved-searches-title" className="h6">
                  {ts.listTitle}
                </h2>
                {loaderData.saved.length ? (
                  <ul className="list-unstyled small mb-2">
                    {loaderData.saved.map((search) => (
                      <li key={search.id} className="mb-1">
                        <a href={search.searchPath} aria-label={fill(ts.run, { name: search.name })}>
                          {search.name}
                        </a>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="small text-body-secondary">{ts.none}</p>
                )}
                <a href="/app/searches" className="small">
                  {ts.manage}
                </a>
              </nav>
            </div>
            <section className="col-lg-9" aria-labelledby="search-results">
              <h2 id="search-results" className="h5">
                {t.results}
                {total !== null ? (
                  <span className="ms-2 fs-6 fw-normal text-body-secondary" data-testid="result-count">
                    {resultCount(locale, total)}
                  </span>
                ) : null}
              </h2>
              {loaderData.alertHref ? (
                <div className="d-flex flex-wrap gap-2 align-items-start mb-3" data-testid="search-actions">
                  <a
                    href={loaderData.alertHref}
                    className="btn btn-outline-primary btn-sm"
                    aria-describedby="save-as-alert-hint"
                  >
                    {ts.saveAsAlert}
                  </a>
                  <details className="app-save-search" open={Boolean(actionData?.saveError) || undefined}>
                    <summary className="btn btn-outline-secondary btn-sm">{ts.saveTitle}</summary>
                    <div className="d-flex flex-wrap gap-2 align-items-end mt-2">
                      <div>
                        <label htmlFor="save-search-name" className="form-label small mb-1">
                          {ts.nameLabel}
                        </label>
                        <input
                          id="save-search-name"
                          name="name"
                          form="save-search"
                          maxLength={120}
                          defaultValue={values.q ?? ""}
                          className={`form-control form-control-sm${actionData?.saveError ? " is-invalid" : ""}`}
                          aria-describedby={actionData?.saveError ? "save-search-error" : undefined}
                          aria-invalid={actionData?.saveError ? true : undefined}
                        />
                      </div>
                      <button type="submit" form="save-search" className="btn btn-primary btn-sm">
                        {ts.save}
                      </button>
                    </div>
                    {actionData?.saveError ? (
                      <div id="save-search-error" className="invalid-feedback d-block" role="alert">
                        {actionData.saveError}
                      </div>
                    ) : null}
                  </details>
                  <p id="save-as-alert-hint" className="form-text w-100 mt-0 mb-0">
                    {ts.saveAsAlertHint}
                  </p>
                </div>
              ) : null}
              {actionData?.savedName ? (
                <div className="alert alert-success" role="status" data-testid="search-saved">
                  {fill(ts.saved, { name: actionData.savedName })}
                </div>
              ) : null}
              {invalid ? (
                <div className="alert alert-danger" role="alert">
                  {t.invalid}
                </div>
              ) : null}
              {!invalid && items.length === 0 ? <p data-testid="no-results">{t.none}</p> : null}
              <ResultList items={items} locale={locale} testId="results" />
              {nextHref || firstHref ? (
                <nav aria-label={t.pagination} className="d-flex flex-wrap gap-2 align-items-center mt-3">
                  {firstHref ? (
                    <a href={firstHref} className="btn btn-outline-secondary btn-sm">
                      {t.first}
                    </a>
                  ) : null}
                  <span className="small text-body-secondary" aria-current="page">
                    {fill(t.page, { page })}
                  </span>
                  {nextHref ? (
                    <a href={nextHref} className="btn btn-outline-primary btn-sm" rel="next">
                      {t.next}
                    </a>
                  ) : null}
                </nav>
              ) : null}
            </section>
          </div>
        </form>
      </search>
      {/* Outside the filters' form: the results' "follow this law" buttons submit these, and "save this search" this one (its fields are in the results' header). */}
      <FollowLawForms items={items} />
      <Form method="post" id="save-search" />
    </>
  );
}
