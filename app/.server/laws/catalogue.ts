/**
 * The catalogue of laws to follow (issue 39, decision 0140): every consolidated BOE law and every
 * EU act with consolidated versions, as the law-catalogue source lists them
 * (sources/catalogue/), with their official number and their common names (a curated table,
 * fixtures/reference/laws/common-names.json). Searched by title, number, identifier and common
 * name in Spanish and English, accents and case aside: PostgreSQL full text (es_unaccent,
 * en_unaccent) on titles and names, and pg_trgm-indexed LIKE on the identifiers and names
 * (`keys`), the same SQL on PGlite and PostgreSQL.
 *
 * Public data: the catalogue has no organisation column and knows nothing of follows; which
 * laws an organisation follows stays in its alert profiles (follows.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { lawCatalogue } from "../db/schema.ts";
import { referenceFixturesDir } from "../fixtures-path.ts";

export interface CommonNames {
  acronyms?: string[];
  es?: string[];
  en?: string[];
}

/** One entry as a source lists it (before the common names are added). */
export interface CatalogueInput {
  id: string;
  source: "boe" | "eu";
  title: string;
  titles?: { es?: string; en?: string };
  number?: string | null;
  rank?: string | null;
  datedOn?: string | null;
  inForce?: boolean;
  eli?: string | null;
  /** The source's date of last update (BOE fecha_actualizacion), ISO. */
  sourceUpdatedAt?: string | null;
}

export interface CatalogueEntry {
  id: string;
  source: "boe" | "eu";
  title: string;
  number: string | null;
  rank: string | null;
  commonNames: string[];
  datedOn: string | null;
  inForce: boolean;
  eli: string | null;
}

export const commonNamesFile = path.join(referenceFixturesDir, "laws/common-names.json");

let commonNames: Map<string, CommonNames> | undefined;

/** The curated common names, by law id (read once). */
export function commonNamesTable(): Map<string, CommonNames> {
  if (!commonNames) {
    const parsed = JSON.parse(readFileSync(commonNamesFile, "utf8")) as { laws: Record<string, CommonNames> };
    commonNames = new Map(Object.entries(parsed.laws));
  }
  return commonNames;
}

/**
 * Stores or refreshes entries, with their common names. Returns how many were written. A listed
 * entry's `seen_at` moves, so an entry no list names any more can be told apart.
 */
export async function upsertCatalogue(database: Database, entries: CatalogueInput[]): Promise<number> {
  const names = commonNamesTable();
  const now = new Date();
  let written = 0;
  for (let i = 0; i < entries.length; i += 200) {
    const rows = entries.slice(i, i + 200).map((entry) => ({
      id: entry.id,
      source: entry.source,
      title: entry.title.slice(0, 2000),
      titles: entry.titles ?? {},
      number: entry.number ?? null,
      rank: entry.rank ?? null,
      aliases: names.get(entry.id) ?? {},
      datedOn: entry.datedOn ?? null,
      inForce: entry.inForce ?? true,
      eli: entry.eli ?? null,
      sourceUpdatedAt: entry.sourceUpdatedAt ? new Date(entry.sourceUpdatedAt) : null,
      seenAt: now,
    }));
    // One batch may name an entry twice (a list that moved between pages): the last one wins.
    const unique = [...new Map(rows.map((row) => [row.id, row])).values()];
    await database.db
      .insert(lawCatalogue)
      .values(unique)
      .onConflictDoUpdate({
        target: lawCatalogue.id,
        set: {
          source: sql`excluded.source`,
          title: sql`excluded.title`,
          // A list without Spanish (or English) titles keeps those an earlier list gave.
          titles: sql`${lawCatalogue.titles} || excluded.titles`,
          number: sql`coalesce(excluded.number, ${lawCatalogue.number})`,
          rank: sql`coalesce(excluded.rank, ${lawCatalogue.rank})`,
          aliases: sql`excluded.aliases`,
          datedOn: sql`coalesce(excluded.dated_on, ${lawCatalogue.datedOn})`,
          inForce: sql`excluded.in_force`,
          eli: sql`coalesce(excluded.eli, ${lawCatalogue.eli})`,
          sourceUpdatedAt: sql`coalesce(excluded.source_updated_at, ${lawCatalogue.sourceUpdatedAt})`,
          seenAt: sql`excluded.seen_at`,
        },
      });
    written += unique.length;
  }
  return written;
}

/** Lower case without accents, as unaccent(lower(…)) writes `keys`. */
export function catalogueKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface CatalogueSearch {
  q: string;
  source?: "boe" | "eu";
  limit?: number;
  offset?: number;
}

export interface CatalogueResult {
  items: CatalogueEntry[];
  /** True when there are more matches after this page. */
  more: boolean;
}

export const CATALOGUE_QUERY_MAX = 200;
/** How many matches are ranked (and can be paged through): the first by identifier, force and title length. */
export const CANDIDATES = 500;

interface Row {
  id: string;
  source: "boe" | "eu";
  title: string;
  titles: { es?: string; en?: string } | null;
  number: string | null;
  rank: string | null;
  aliases: CommonNames | null;
  dated_on: string | Date | null;
  in_force: boolean;
  eli: string | null;
}

const day = (value: string | Date | null) =>
  value === null ? null : typeof value === "string" ? value.slice(0, 10) : value.toISOString().slice(0, 10);

function entryOf(row: Row, locale: "es" | "en"): CatalogueEntry {
  const names = row.aliases ?? {};
  return {
    id: row.id,
    source: row.source,
    title: row.titles?.[locale] || row.title,
    number: row.number,
    rank: row.rank,
    commonNames: [...(names.acronyms ?? []), ...(names[locale] ?? [])],
    datedOn: day(row.dated_on),
    inForce: row.in_force,
    eli: row.eli,
  };
}

/**
 * Entries matching `q`: an identifier, number or common name (whole first, then part of one),
 * then titles and names by full text in Spanish and English. Ordered by how well they match,
 * then newest first. An empty query lists nothing.
 */
export async function searchCatalogue(
  database: Database,
  search: CatalogueSearch,
  locale: "es" | "en" = "es",
): Promise<CatalogueResult> {
  const q = search.q.replace(/\s+/g, " ").trim().slice(0, CATALOGUE_QUERY_MAX);
  const key = catalogueKey(q);
  if (!key) return { items: [], more: false };
  const limit = Math.min(Math.max(search.limit ?? 20, 1), 100);
  const offset = Math.min(Math.max(search.offset ?? 0, 0), CANDIDATES);
  const whole = `%|${escapeLike(key)}|%`;
  const part = `%${escapeLike(key)}%`;
  // Each way of matching reads its own index in its own union branch: with the three ORed in one
  // WHERE, PGlite scanned every row's two vectors (as for documents, decision 0117). The tsqueries
  // are written out in each place (not in a CTE), so the planner evaluates them once. ts_rank is
  // the costly part (a few µs a row): a query that matches thousands of entries ("ley") ranks
  // only the best CANDIDATES by the cheap order (identifier or name matched, in force, shortest
  // title first).
  const es = sql`websearch_to_tsquery('es_unaccent', ${q})`;
  const en = sql`websearch_to_tsquery('en_unaccent', ${q})`;
  const bySource = search.source ? sql`and source = ${search.source}` : sql``;
  const rows = await database.rows<Row>(sql`
    with matched as (
      select id from law_catalogue where keys like ${part} ${bySource}
      union
      select id from law_catalogue where search_es @@ ${es} ${bySource}
      union
      select id from law_catalogue where search_en @@ ${en} ${bySource}
    ),
    hits as (
      select c.id,
        (case when c.keys like ${whole} then 2 when c.keys like ${part} then 1 else 0 end) as key_match
      from matched m join law_catalogue c on c.id = m.id
      order by key_match desc, c.in_force desc, length(c.title), c.id
      limit ${CANDIDATES}
    )
    select c.id, c.source, c.title, c.titles, c.number, c.rank, c.aliases, c.dated_on, c.in_force, c.eli
    from hits h join law_catalogue c on c.id = h.id
    order by
      h.key_match desc,
      greatest(ts_rank(c.search_es, ${es}), ts_rank(c.search_en, ${en})) desc,
      c.in_force desc,
      c.dated_on desc nulls last,
      c.id
    limit ${limit + 1} offset ${offset}`);
  return { items: rows.slice(0, limit).map((row) => entryOf(row, locale)), more: rows.length > limit };
}

/** One entry by id, or undefined. */
export async function catalogueEntry(
  database: Database,
  id: string,
  locale: "es" | "en" = "es",
): Promise<CatalogueEntry | undefined> {
  const [row] = await database.rows<Row>(sql`
    select id, source, title, titles, number, rank, aliases, dated_on, in_force, eli
    from law_catalogue where id = ${id}`);
  return row ? entryOf(row, locale) : undefined;
}

/** How many entries the catalogue holds, by source, and when it was last refreshed. */
export async function catalogueSize(
  database: Database,
): Promise<{ boe: number; eu: number; refreshedAt: string | null }> {
  const rows = await database.rows<{ source: string; n: number | string; seen: string | Date | null }>(
    sql`select source, count(*) as n, max(seen_at) as seen from law_catalogue group by source`,
  );
  const by = new Map(rows.map((r) => [r.source, r]));
  const seen = rows
    .map((r) => (r.seen ? new Date(r.seen).toISOString() : null))
    .filter((s): s is string => s !== null)
    .sort()
    .at(-1);
  return { boe: Number(by.get("boe")?.n ?? 0), eu: Number(by.get("eu")?.n ?? 0), refreshedAt: seen ?? null };
}
