import { data, Form, Link } from "react-router";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { catalogueSize, searchCatalogue } from "../../.server/laws/catalogue";
import { followFromForm, followsOf } from "../../.server/laws/follow-page";
import { listOrganisationFollows } from "../../.server/laws/follows";
import { startEuSync } from "../../.server/sources/eu-consolidated/run";
import { FollowMessage, type FollowResult } from "../../components/app/laws/follow-form";
import { formatLawDate, lawsMessages } from "../../components/app/laws/messages";
import { fill } from "../../components/app/messages";
import { plural } from "../../lib/plural";
import type { Route } from "./+types/law-catalogue";

export const handle = { layout: "bare" };

const PAGE = 25;

/** The catalogue of laws to follow (issue 39): search by title, number, id or common name; follow from a result. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const locale = appLocale(context);
  const database = context.get(servicesContext).api.database;
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 200);
  const sourceParam = url.searchParams.get("source");
  const source = sourceParam === "boe" || sourceParam === "eu" ? sourceParam : undefined;
  const [result, size, follows] = await Promise.all([
    q.trim() ? searchCatalogue(database, { q, source, limit: PAGE }, locale) : Promise.resolve(null),
    catalogueSize(database),
    followsOf(database, member),
  ]);
  // A law's page is its followers' (decision 0124): open it from here when the organisation follows it.
  const reached = await listOrganisationFollows(database, member.organizationId);
  const held = new Set(reached.map((f) => f.lawId));
  const followed = new Set(follows.map((f) => f.lawId));
  return {
    locale,
    q,
    source: source ?? "",
    size,
    more: result?.more ?? false,
    items: (result?.items ?? []).map((item) => ({
      ...item,
      held: held.has(item.id),
      followed: followed.has(item.id),
    })),
    searched: result !== null,
  };
}

/** Follow a law from a result (the whole law, for me): the same audited follow as /app/laws. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "alerts.use");
  const services = context.get(servicesContext);
  const database = services.api.database;
  const form = await request.formData();
  const result: FollowResult & { lawId?: string } = await followFromForm(
    database,
    member,
    requestMeta(request, context),
    form,
  );
  if (result.ok && result.lawId && !/^BOE-/.test(result.lawId) && services.config) {
    startEuSync(services.config, database, services.log, result.lawId);
  }
  return data(result, { status: result.ok ? 200 : 422 });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? lawsMessages(loaderData.locale).catalogue.title : "" }];
}

export default function LawCatalogue({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, q, source, size, items, more, searched } = loaderData;
  const t = lawsMessages(locale);
  const c = t.catalogue;
  const empty = size.boe + size.eu === 0;
  return (
    <>
      <p className="mb-2">
        <Link to="/app/laws">{t.list.title}</Link>
      </p>
      <h1 className="h3">{c.title}</h1>
      <p className="text-body-secondary">{c.lead}</p>
      <FollowMessage t={t} result={actionData} />
      <Form method="get" className="card card-body mb-3" role="search" aria-label={c.title}>
        <div className="row g-2 align-items-end">
          <div className="col-12 col-md">
            <label htmlFor="catalogue-q" className="form-label">
              {c.label}
            </label>
            <input
              id="catalogue-q"
              name="q"
              type="search"
              className="form-control"
              defaultValue={q}
              maxLength={200}
              autoComplete="off"
              aria-describedby="catalogue-hint"
            />
          </div>
          <div className="col-6 col-md-auto">
            <label htmlFor="catalogue-source" className="form-label">
              {c.source}
            </label>
            <select id="catalogue-source" name="source" className="form-select" defaultValue={source}>
              <option value="">{c.sources.all}</option>
              <option value="boe">{c.sources.boe}</option>
              <option value="eu">{c.sources.eu}</option>
            </select>
          </div>
          <div className="col-6 col-md-auto">
            <button type="submit" className="btn btn-primary w-100">
              {c.submit}
            </button>
          </div>
        </div>
        <div id="catalogue-hint" className="form-text">
          {c.hint}{" "}
          {empty
            ? c.empty
            : fill(c.size, {
                boe: size.boe.toLocaleString(locale),
                eu: size.eu.toLocaleString(locale),
                date: size.refreshedAt ? formatLawDate(size.refreshedAt.slice(0, 10), locale) : "—",
              })}
        </div>
      </Form>
      {searched ? (
        <section aria-labelledby="catalogue-results">
          <h2 id="catalogue-results" className="h5" aria-live="polite">
            {items.length === 0
              ? fill(c.none, { q })
              : more
                ? plural(locale, c.resultsMore, items.length)
                : plural(locale, c.results, items.length)}
          </h2>
          <ol className="list-unstyled" data-testid="catalogue-results">
            {items.map((item) => (
              <li key={item.id} className="card mb-2" data-law={item.id}>
                <div className="card-body py-2">
                  <h3 className="h6 mb-1" id={`law-${item.id}`} lang={item.source === "eu" ? "en" : "es"}>
                    {item.held ? <Link to={`/app/laws/${encodeURIComponent(item.id)}`}>{item.title}</Link> : item.title}
                  </h3>
                  <p className="small text-body-secondary mb-1">
                    <span className="badge text-bg-secondary me-1">{c.sources[item.source]}</span>
                    {item.id}
                    {item.number ? ` · ${c.number} ${item.number}` : ""}
                    {item.datedOn ? ` · ${formatLawDate(item.datedOn, locale)}` : ""}
                    {item.inForce ? null : <span className="badge text-bg-warning ms-1">{c.repealed}</span>}
                  </p>
                  {item.commonNames.length > 0 ? (
                    <p className="small mb-1">
                      {c.names}: {item.commonNames.join(" · ")}
                    </p>
                  ) : null}
                  <div className="d-flex flex-wrap gap-2 align-items-center">
                    {item.followed ? (
                      <span className="badge text-bg-success">{c.followed}</span>
                    ) : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="follow" />
                        <input type="hidden" name="law" value={item.id} />
                        <button
                          type="submit"
                          className="btn btn-sm btn-outline-primary"
                          aria-describedby={`law-${item.id}`}
                        >
                          {c.follow}
                        </button>
                      </Form>
                    )}
                    {item.held ? (
                      <Link
                        to={`/app/laws/${encodeURIComponent(item.id)}`}
                        className="small"
                        aria-describedby={`law-${item.id}`}
                      >
                        {c.open}
                      </Link>
                    ) : null}
                  </div>
                </div>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </>
  );
}
