/**
 * The one organisation reach rule (decisions 0051 and 0080): BOE and EUR-Lex documents are
 * everyone's; a feed entry belongs to the organisation whose feed (source_feeds row) brought it.
 * Every path that shows, counts, matches, previews or sends a document applies this fragment: the
 * document page, search and its facets, the home, the API, alert matching (in-app, mail, digest,
 * chat, webhooks), the profile preview and the organisation topics.
 */
import { type SQL, sql } from "drizzle-orm";

/** A document table alias in the SQL that embeds the rule ("d" unless told). */
type Alias = string;

/**
 * True for the documents (alias `d`) within the reach of `organizationId`: a value, or an SQL
 * expression naming an organisation column (alert_profiles.organization_id, webhooks.organization_id…).
 */
export function reachable(organizationId: string | SQL, alias: Alias = "d"): SQL {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`bad table alias ${alias}`);
  const d = sql.raw(alias);
  return sql`(${d}.source <> 'feed' or exists (select 1 from source_feeds reach_f
    where reach_f.id = ${d}.feed_id and reach_f.organization_id = ${organizationId}))`;
}

/**
 * True for the organisations (column expression `organizationId`) that can reach the stored
 * document `documentId`: what topics add to their own filters.
 */
export function reachesDocument(organizationId: SQL, documentId: string): SQL {
  return sql`exists (select 1 from documents reach_d where reach_d.id = ${documentId}::uuid
    and ${reachable(organizationId, "reach_d")})`;
}

/**
 * The same for a document already loaded (matching): a public source's document reaches every
 * organisation (loaders outside the database, as in tests, need no row); a feed entry is checked
 * against its stored row, so an entry without one reaches nobody.
 */
export function reachesLoadedDocument(organizationId: SQL, document: { id: string; source: string }): SQL {
  return document.source === "boe" || document.source === "eurlex"
    ? sql`true`
    : reachesDocument(organizationId, document.id);
}

/** An http(s) URL, else "" (feed links such as javascript: or data: are neither stored nor forwarded). */
export function httpUrlOrEmpty(value: string | undefined | null): string {
  const text = (value ?? "").trim();
  if (!/^https?:\/\//i.test(text)) return "";
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? text : "";
  } catch {
    return "";
  }
}
