import { Form } from "react-router";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import {
  deleteSavedSearch,
  listSavedSearches,
  type SavedFilters,
  savedSearchPaths,
} from "../../.server/searches/saved";
import { sourceChoices } from "../../.server/sources/registry";
import { fill, formatDateTime } from "../../components/app/messages";
import { type SavedMessages, savedMessages } from "../../components/app/saved/messages";
import type { Locale } from "../../i18n/locales";
import { areas, jurisdictions, kinds } from "../../lib/taxonomy";
import type { Route } from "./+types/saved-searches";

export const handle = { layout: "bare" };

/** The member's saved searches: run one in one click, make it an alert, delete it. */
export async function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const locale = appLocale(context);
  const searches = await listSavedSearches(context.get(servicesContext).api.database.db, member);
  return {
    locale,
    sources: sourceChoices(locale),
    searches: searches.map((search) => ({
      id: search.id,
      name: search.name,
      filters: search.filters,
      createdAt: search.createdAt.toISOString(),
      ...savedSearchPaths(search),
    })),
  };
}

/** intent=delete with `id`: the member's own search only (another's is not found), audited. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "documents.read");
  const t = savedMessages(appLocale(context)).searches;
  const form = await request.formData();
  const meta = requestMeta(request, context);
  const removed = await deleteSavedSearch(
    context.get(servicesContext).api.database.db,
    member,
    String(form.get("id") ?? ""),
    { actor: { id: member.userId, email: member.email }, ip: meta.ip, userAgent: meta.userAgent },
  );
  return { done: removed ? fill(t.deleted, { name: removed.name }) : t.notFound, ok: Boolean(removed) };
}

/** "Consulta: subvenciones · Área: Subvenciones y ayudas": the filters in words. */
function describe(
  filters: SavedFilters,
  t: SavedMessages["searches"],
  locale: Locale,
  sources: { id: string; label: string }[],
): string {
  const named = (list: readonly { id: string; name: { es: string; en: string } }[], id: string) =>
    list.find((entry) => entry.id === id)?.name[locale] ?? id;
  const parts: string[] = [];
  const add = (key: keyof SavedMessages["searches"]["filterLabels"], value: string | undefined) => {
    if (value) parts.push(`${t.filterLabels[key]}: ${value}`);
  };
  add("q", filters.q);
  add("source", filters.source ? (sources.find((s) => s.id === filters.source)?.label ?? filters.source) : undefined);
  add("area", filters.area ? named(areas, filters.area) : undefined);
  add("jurisdiction", filters.jurisdiction ? named(jurisdictions, filters.jurisdiction) : undefined);
  add("kind", filters.kind ? named(kinds, filters.kind) : undefined);
  add("relevance", filters.relevance ? t.relevance[filters.relevance as "high"] : undefined);
  add("from", filters.from);
  add("to", filters.to);
  add("sort", filters.sort ? t.sort[filters.sort as "date"] : undefined);
  return parts.join(" · ") || t.noFilters;
}

export default function SavedSearches({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, searches, sources } = loaderData;
  const t = savedMessages(locale).searches;
  return (
    <>
      <h1 className="h3">{t.title}</h1>
      <p className="text-body-secondary">{t.lead}</p>
      {actionData ? (
        <div className={`alert ${actionData.ok ? "alert-success" : "alert-warning"}`} role="status">
          {actionData.done}
        </div>
      ) : null}
      {searches.length === 0 ? (
        <p data-testid="saved-searches-empty">
          {t.none} <a href="/app/search">{savedMessages(locale).fromSearch.back}</a>
        </p>
      ) : (
        <ul className="list-group" data-testid="saved-search-list">
          {searches.map((search) => (
            <li key={search.id} className="list-group-item">
              <div className="d-flex flex-wrap justify-content-between gap-2 align-items-start">
                <div className="flex-grow-1" style={{ minWidth: 0 }}>
                  <h2 className="h6 mb-1">
                    <a href={search.searchPath} aria-label={fill(t.run, { name: search.name })}>
                      {search.name}
                    </a>
                  </h2>
                  <p className="small mb-1 text-break">{describe(search.filters, t, locale, sources)}</p>
                  <p className="small text-body-secondary mb-0">
                    {fill(t.savedOn, { date: formatDateTime(search.createdAt, locale) })}
                  </p>
                </div>
                <div className="d-flex flex-wrap gap-2">
                  <a
                    href={search.alertPath}
                    className="btn btn-outline-primary btn-sm"
                    aria-label={fill(t.createAlertFrom, { name: search.name })}
                  >
                    {t.createAlert}
                  </a>
                  <Form method="post">
                    <input type="hidden" name="id" value={search.id} />
                    <button
                      type="submit"
                      className="btn btn-outline-danger btn-sm"
                      aria-label={fill(t.delete, { name: search.name })}
                    >
                      {t.deleteButton}
                    </button>
                  </Form>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
