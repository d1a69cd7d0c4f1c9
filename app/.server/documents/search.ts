/**
 * Search and read documents (the API's Document shape, ARCHITECTURE.md).
 *
 * searchDocuments(database, params): full text in Spanish and English (websearch syntax:
 * "phrases", -exclusions, OR; stemming; accents ignored through the es_unaccent/en_unaccent
 * configurations), filters, sort by relevance or date, facet counts, highlighted snippets
 * (safe HTML: the text is escaped, only <mark> is added), opaque cursor pagination.
 * getDocument(database, id): one Document plus text, paragraphs and relations.
 */
import { type SQL, sql } from "drizzle-orm";
import { isCalendarDate } from "../../lib/calendar-date.ts";
import type { AreaId } from "../../lib/taxonomy.ts";
import type { Database } from "../db/client.ts";
import { applyCorrections, correctionsOf } from "./corrections.ts";
import { reachable } from "./reach.ts";
import { expandQuery, prefixes } from "./search-expand.ts";
import type { AreaLabel, CodedLabel, Paragraph, Provenance, SourceDocument, SourceId } from "./types.ts";

export interface SearchParams {
  q?: string | undefined;
  source?: string | undefined;
  area?: string | undefined;
  jurisdiction?: string | undefined;
  kind?: string | undefined;
  relevance?: string | undefined;
  /** YYYY-MM-DD, inclusive. */
  from?: string | undefined;
  to?: string | undefined;
  /** Default: relevance with q, date without. */
  sort?: "relevance" | "date" | undefined;
  /** 1..100, default 20. */
  limit?: number | undefined;
  cursor?: string | undefined;
  /** Leave out facet counts (cheaper). */
  facets?: boolean | undefined;
  /**
   * The reader's organisation: feed documents are within its reach only when its own feed brought
   * them (documents/reach.ts). Without it every document is searched (operator tools, tests).
   */
  organizationId?: string | undefined;
}

/** The API's Document. */
export interface DocumentItem {
  id: string;
  source: SourceId;
  sourceId: string;
  title: string;
  language: "es" | "en";
  titles: { es?: string; en?: string };
  publishedOn: string;
  kind: string | null;
  rank: string | null;
  department: string | null;
  jurisdiction: string | null;
  areas: AreaLabel[];
  relevance: "high" | "medium" | "low" | null;
  officialUrl: string;
  effectiveDates: string[];
  provenance: Provenance[];
  sample: boolean;
}

export interface SearchHit extends DocumentItem {
  /** Safe HTML: escaped text with <mark> around matches; null without q. */
  snippet: string | null;
}

export type Facets = Record<"source" | "jurisdiction" | "kind" | "relevance" | "area", Record<string, number>>;

export interface SearchResult {
  items: SearchHit[];
  nextCursor: string | null;
  facets: Facets | null;
}

export interface DocumentRelationView {
  type: string;
  targetSourceId: string;
  documentId: string | null;
  label: string;
}

export interface DocumentDetail extends DocumentItem {
  text: string;
  paragraphs: Paragraph[];
  relations: DocumentRelationView[];
  links: SourceDocument["links"];
  section: string | null;
  epigraph: string | null;
  subjects: CodedLabel[];
  alerts: CodedLabel[];
  eurovoc: CodedLabel[];
  notes: string[];
  feedName: string | null;
  version: number;
  /** A sample document published again as today: the day it was recorded as published (issue 39). */
  replayedFrom: string | null;
}

export class SearchParamsError extends Error {
  override name = "SearchParamsError";
}

const OPEN = "\u27e6";
const CLOSE = "\u27e7";

/** Escapes text for HTML, then turns the headline markers into <mark>. */
export function safeSnippet(headline: string): string {
  const escaped = headline
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
  return escaped.replaceAll(OPEN, "<mark>").replaceAll(CLOSE, "</mark>");
}

const configs = { es: sql.raw(`'es_unaccent'::regconfig`), en: sql.raw(`'en_unaccent'::regconfig`) };

/** The query's tsquery in one language: its words (websearch syntax), its word* prefixes, its translations. */
function tsquery(lang: "es" | "en", rest: string, prefixTerms: string[], phrases: string[]): SQL {
  const config = configs[lang];
  let main: SQL | undefined = rest ? sql`websearch_to_tsquery(${config}, ${rest})` : undefined;
  for (const prefix of prefixTerms) {
    const term = sql`to_tsquery(${config}, ${`'${prefix}':*`})`;
    main = main ? sql`(${main} && ${term})` : term;
  }
  // Translations as words, not phrases: a phrase is checked against each row's positions (the
  // heap), which for a query naming a large area read thousands of vectors.
  const alternatives = phrases.map((phrase) => sql`plainto_tsquery(${config}, ${phrase})`);
  const parts = main ? [main, ...alternatives] : alternatives;
  return parts.length > 0 ? sql`(${sql.join(parts, sql` || `)})` : sql`''::tsquery`;
}

/** Matches up to this many are all ranked by relevance (decision 0094). */
export const FULL_RANK_LIMIT = 1000;
/** Beyond, this many: the named areas' documents first, then the newest. */
export const RANK_CANDIDATES = 500;

export interface QueryTerms {
  es: SQL;
  en: SQL;
  areas: AreaId[];
}

/** The tsqueries of q in Spanish and English, with the areas it names (search-expand.ts). */
export function queryTerms(q: string): QueryTerms {
  const { prefixes: prefixTerms, rest } = prefixes(q);
  const expansion = expandQuery(q);
  return {
    es: tsquery("es", rest, prefixTerms, expansion.phrases.es),
    en: tsquery("en", rest, prefixTerms, expansion.phrases.en),
    areas: expansion.areas,
  };
}

/**
 * A document is of one of these areas for the organisation: its stored labels, less the areas
 * the organisation marked wrong, plus the ones it added (area_corrections). Without an
 * organisation, the stored labels. Written so the area index still answers the first part.
 */
export function namedAreas(areaIds: readonly string[], organizationId: string | undefined): SQL {
  const list = sql`array[${sql.join(
    areaIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  if (organizationId === undefined) return sql`d.area_ids && ${list}`;
  return sql`((d.area_ids && ${list} and (not exists (select 1 from area_corrections c where c.organization_id = ${organizationId}
      and c.document_id = d.id and c.action = 'remove')
    or exists (select 1 from unnest(d.area_ids) a where a = any(${list}) and a not in (select c.area from area_corrections c
      where c.organization_id = ${organizationId} and c.document_id = d.id and c.action = 'remove'))))
    or d.id = any(array(select c.document_id from area_corrections c where c.organization_id = ${organizationId}
      and c.action = 'add' and c.area = any(${list}))))`;
}

function hasArea(area: string, organizationId: string | undefined): SQL {
  return organizationId === undefined ? sql`d.area_ids @> array[${area}]::text[]` : namedAreas([area], organizationId);
}

/** The -word and -"phrase" terms of a websearch query. */
export function exclusions(q: string): string[] {
  const out: string[] = [];
  for (const match of q.matchAll(/(?:^|\s)-(?:"([^"]*)"|([^\s"]+))/g)) {
    const term = (match[1] ?? match[2] ?? "").trim();
    if (term) out.push(term);
  }
  return out;
}

function encodeCursor(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function decodeCursor(cursor: string): { o?: number; p?: string; id?: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Record<string, unknown>;
    const out: { o?: number; p?: string; id?: string } = {};
    if (typeof value.o === "number" && Number.isInteger(value.o) && value.o >= 0) out.o = value.o;
    if (typeof value.p === "string" && isCalendarDate(value.p)) out.p = value.p;
    if (typeof value.id === "string" && /^[0-9a-f-]{36}$/.test(value.id)) out.id = value.id;
    return out;
  } catch {
    throw new SearchParamsError("invalid cursor");
  }
}

interface Row {
  id: string;
  source: DocumentItem["source"];
  source_id: string;
  title: string;
  language: DocumentItem["language"];
  titles: DocumentItem["titles"];
  published_on: string;
  kind: string | null;
  rank: string | null;
  department: string | null;
  jurisdiction: string | null;
  areas: AreaLabel[] | null;
  relevance: DocumentItem["relevance"];
  official_url: string;
  effective_dates: string[];
  provenance: Provenance[] | null;
  sample: boolean;
}

const itemColumns = sql.raw(`d.id, d.source, d.source_id, d.title, d.language, d.titles, d.published_on, d.kind, d.rank,
  d.department, d.jurisdiction, d.areas, d.relevance, d.official_url, d.effective_dates, d.sample`);

function toItem(row: Row): DocumentItem {
  return {
    id: row.id,
    source: row.source,
    sourceId: row.source_id,
    title: row.title,
    language: row.language,
    titles: row.titles ?? {},
    publishedOn: row.published_on,
    kind: row.kind,
    rank: row.rank,
    department: row.department,
    jurisdiction: row.jurisdiction,
    areas: row.areas ?? [],
    relevance: row.relevance,
    officialUrl: row.official_url,
    effectiveDates: row.effective_dates ?? [],
    provenance: row.provenance ?? [],
    sample: row.sample,
  };
}

export async function searchDocuments(database: Database, params: SearchParams): Promise<SearchResult> {
  const limit = params.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new SearchParamsError("limit must be 1..100");
  for (const [name, value] of [
    ["from", params.from],
    ["to", params.to],
  ] as const) {
    if (value !== undefined && !isCalendarDate(value)) throw new SearchParamsError(`${name} must be YYYY-MM-DD`);
  }
  const q = params.q?.trim().slice(0, 500) || undefined;
  const sort = params.sort ?? (q ? "relevance" : "date");
  const cursor = params.cursor ? decodeCursor(params.cursor) : {};

  // The filters besides the query's own match (exclusions, reach), then the match.
  const base: SQL[] = [];
  const terms = q ? queryTerms(q) : undefined;
  let textMatch: SQL | undefined;
  let named: SQL | undefined;
  let match: SQL | undefined;
  if (q && terms) {
    textMatch = sql`(d.search_es @@ ${terms.es} or d.search_en @@ ${terms.en})`;
    // A plain query also matches the documents of the areas it names (none for "phrases").
    named = terms.areas.length > 0 ? namedAreas(terms.areas, params.organizationId) : undefined;
    // With an area named, the match is a union of index lookups. Written as one OR over the text
    // and a sixth of the collection, the planner read every row's vectors instead (a sequential
    // scan: 1.5 s at 100,000 documents on PostgreSQL).
    match = named
      ? sql`d.id in (select d.id from documents d where d.search_es @@ ${terms.es}
          union all select d.id from documents d where d.search_en @@ ${terms.en}
          union all select d.id from documents d where ${named})`
      : textMatch;
    // An exclusion holds in both languages: a Spanish text matched through its English side
    // (department, labels) must not bring back a word excluded on its Spanish side.
    for (const excluded of exclusions(q)) {
      base.push(
        sql`not (d.search_es @@ phraseto_tsquery('es_unaccent', ${excluded}) or d.search_en @@ phraseto_tsquery('en_unaccent', ${excluded}))`,
      );
    }
  }
  if (params.organizationId !== undefined) base.push(reachable(params.organizationId));
  const facetFilters = (skip?: string, withMatch = true) => {
    const out = withMatch && match ? [match, ...base] : [...base];
    if (params.source && skip !== "source") out.push(sql`d.source = ${params.source}`);
    if (params.jurisdiction && skip !== "jurisdiction") out.push(sql`d.jurisdiction = ${params.jurisdiction}`);
    if (params.kind && skip !== "kind") out.push(sql`d.kind = ${params.kind}`);
    if (params.relevance && skip !== "relevance") out.push(sql`d.relevance = ${params.relevance}`);
    if (params.area && skip !== "area") out.push(hasArea(params.area, params.organizationId));
    if (params.from) out.push(sql`d.published_on >= ${params.from}`);
    if (params.to) out.push(sql`d.published_on <= ${params.to}`);
    return out;
  };
  const where = (parts: SQL[]) => (parts.length > 0 ? sql.join(parts, sql` and `) : sql`true`);
  const all = facetFilters();

  // Relevance over every match: the text's weight (title A, department/epigraph/labels B, body C)
  // in either language, normalised by length so long texts do not win by size alone, plus 1 for
  // a document of an area the query names (they come first).
  const boost = named ? sql`case when ${named} then 1 else 0 end` : sql`0`;
  const rank =
    q && terms
      ? sql`(greatest(ts_rank(d.search_es, ${terms.es}, 1), ts_rank(d.search_en, ${terms.en}, 1)) + ${boost})`
      : sql`0`;
  let page: SQL;
  let offset = 0;
  if (sort === "date") {
    const keyset = cursor.p && cursor.id ? sql` and (d.published_on, d.id) < (${cursor.p}, ${cursor.id}::uuid)` : sql``;
    page = sql`select ${itemColumns}, ${rank} as score from documents d where ${where(all)}${keyset}
      order by d.published_on desc, d.id desc limit ${limit + 1}`;
  } else {
    offset = cursor.o ?? 0;
    // Up to FULL_RANK_LIMIT matches are all ranked (decision 0094); beyond, ranking every match
    // cost seconds at 100k documents (it reads every match's vectors), so the RANK_CANDIDATES
    // first by a cheap key are ranked: the documents of the areas the query names, then the newest.
    // That key is read from two heads, each cut at FULL_RANK_LIMIT + 1 (decision 0117): the newest
    // documents of the named areas and the newest other matches. Both complete means every match is
    // there and counted; either cut means more than FULL_RANK_LIMIT matches, and the first
    // RANK_CANDIDATES of the heads are the first of all matches.
    // The text matches come from the full-text indexes first, one language's index per branch of a
    // union: walking the date index and testing each row's vectors, or one scan testing both
    // vectors of every row (PGlite's choice for the OR of the two languages: 440 ms for a word in
    // an eighth of 100,000 documents, against 65 ms from the two indexes), was several times slower.
    const cap = FULL_RANK_LIMIT + 1;
    const others = facetFilters(undefined, false);
    // A document matched in both languages is one row (union, not union all: the count needs it).
    const textRows = (t: QueryTerms, filters: SQL[]) =>
      sql`select d.id, d.published_on from documents d where ${where([sql`d.search_es @@ ${t.es}`, ...filters])}
        union select d.id, d.published_on from documents d where ${where([sql`d.search_en @@ ${t.en}`, ...filters])}`;
    const heads =
      named && terms
        ? sql`(select d.id, d.published_on, 1 as boost from documents d where ${where([...others, named])}
            order by d.published_on desc, d.id desc limit ${cap})
          union all (select m.id, m.published_on, 0 as boost from (${textRows(terms, [...others, sql`not coalesce(${named}, false)`])}) m
            order by m.published_on desc, m.id desc limit ${cap})`
        : terms
          ? sql`select m.id, m.published_on, 0 as boost from (${textRows(terms, others)}) m
            order by m.published_on desc, m.id desc limit ${cap}`
          : sql`select m.id, m.published_on, 0 as boost from (select d.id, d.published_on from documents d where ${where(all)} offset 0) m
            order by m.published_on desc, m.id desc limit ${cap}`;
    page = sql`with heads as materialized (${heads}),
      total as (select count(*)::int as n from heads),
      candidates as (select id from heads order by boost desc, published_on desc, id desc
        limit (select case when n <= ${FULL_RANK_LIMIT} then n else ${RANK_CANDIDATES} end from total)),
      scored as (select d.id, ${rank} as score, d.published_on from documents d join candidates c on c.id = d.id),
      top as (select id, score from scored order by score desc, published_on desc, id desc limit ${limit + 1} offset ${offset})
      select ${itemColumns}, t.score from documents d join top t on t.id = d.id`;
  }
  const headline = q
    ? sql`ts_headline(case when p.language = 'en' then 'en_unaccent'::regconfig else 'es_unaccent'::regconfig end,
        replace(replace(left(coalesce(nullif(x.body_text, ''), p.title), 20000), ${OPEN}, ''), ${CLOSE}, ''),
        case when p.language = 'en' then ${terms?.en ?? sql`''::tsquery`} else ${terms?.es ?? sql`''::tsquery`} end,
        ${`StartSel=${OPEN}, StopSel=${CLOSE}, MaxFragments=2, MaxWords=30, MinWords=12, FragmentDelimiter=" … "`})`
    : sql`null`;
  const rows = await database.rows<Row & { snippet: string | null; score: number }>(sql`
    select p.*, x.record->'provenance' as provenance, ${headline} as snippet
    from (${page}) p join documents x on x.id = p.id
    order by ${sort === "date" ? sql`p.published_on desc, p.id desc` : sql`p.score desc, p.published_on desc, p.id desc`}`);

  const more = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  // The reader's organisation sees its own corrections of the areas (documents/corrections.ts).
  const corrections =
    params.organizationId !== undefined
      ? await correctionsOf(
          database.db,
          params.organizationId,
          pageRows.map((row) => row.id),
        )
      : undefined;
  const items = pageRows.map((row) => {
    const item = toItem(row);
    return {
      ...item,
      areas: applyCorrections(item.areas, corrections?.get(row.id)),
      snippet: row.snippet === null ? null : safeSnippet(row.snippet),
    };
  });
  const last = pageRows.at(-1);
  const nextCursor =
    !more || !last
      ? null
      : sort === "date"
        ? encodeCursor({ p: last.published_on, id: last.id })
        : encodeCursor({ o: offset + limit });

  let facets: Facets | null = null;
  if (params.facets !== false) {
    const areaQuery = async () => {
      const counts = await database.rows<{ key: string; n: string }>(sql`
        select unnest(d.area_ids) as key, count(*)::text as n from documents d
        where ${where(facetFilters("area"))} group by 1`);
      if (params.organizationId === undefined) return counts;
      // The organisation's corrections move its counts: +1 for an added area the stored labels
      // lack, -1 for a removed one they have (the same filters apply to the corrected documents).
      const moves = await database.rows<{ key: string; n: number }>(sql`
        select c.area as key, sum(case when c.action = 'add' and not (c.area = any(d.area_ids)) then 1
          when c.action = 'remove' and c.area = any(d.area_ids) then -1 else 0 end)::int as n
        from area_corrections c join documents d on d.id = c.document_id
        where c.organization_id = ${params.organizationId} and ${where(facetFilters("area"))} group by 1`);
      const merged = new Map(counts.map((c) => [c.key, Number(c.n)]));
      for (const move of moves) merged.set(move.key, (merged.get(move.key) ?? 0) + Number(move.n));
      return [...merged].filter(([, n]) => n > 0).map(([key, n]) => ({ key, n: String(n) }));
    };
    const column = async (name: "source" | "jurisdiction" | "kind" | "relevance") => {
      const counts = await database.rows<{ key: string | null; n: string }>(
        sql`select d.${sql.raw(name)} as key, count(*)::text as n from documents d where ${where(facetFilters(name))} group by 1`,
      );
      return Object.fromEntries(counts.filter((c) => c.key !== null).map((c) => [c.key, Number(c.n)]));
    };
    type Dimension = "source" | "jurisdiction" | "kind" | "relevance";
    const dimensions: Dimension[] = ["source", "jurisdiction", "kind", "relevance"];
    // Dimensions without a filter of their own count over the same rows: with a query or a filter,
    // one pass with grouping sets instead of one scan each. With nothing to filter, each count
    // reads its own index (index-only scans), which is faster than any pass over the table.
    const shared = all.length > 0 ? dimensions.filter((name) => !params[name]) : [];
    const sharedCounts = async (): Promise<Partial<Record<Dimension, Record<string, number>>>> => {
      if (shared.length < 2) return {};
      const rows = await database.rows<{ dim: Dimension; key: string | null; n: string }>(sql`
        select case ${sql.raw(shared.map((name) => `when grouping(d.${name}) = 0 then '${name}'`).join(" "))} end as dim,
          coalesce(${sql.raw(shared.map((name) => `d.${name}`).join(", "))}) as key, count(*)::text as n
        from documents d where ${where(all)}
        group by grouping sets (${sql.raw(shared.map((name) => `(d.${name})`).join(", "))})`);
      const out: Partial<Record<Dimension, Record<string, number>>> = {};
      for (const row of rows) {
        if (row.key === null) continue;
        out[row.dim] = { ...(out[row.dim] ?? {}), [row.key]: Number(row.n) };
      }
      for (const name of shared) out[name] ??= {};
      return out;
    };
    // Independent counts: run at once (PostgreSQL answers them on several pool connections).
    const [grouped, areaCounts, ...separate] = await Promise.all([
      sharedCounts(),
      areaQuery(),
      ...dimensions.map((name) => (shared.length >= 2 && shared.includes(name) ? Promise.resolve(null) : column(name))),
    ]);
    const [source, jurisdiction, kind, relevance] = dimensions.map(
      (name, index) => separate[index] ?? grouped[name] ?? {},
    ) as [Record<string, number>, Record<string, number>, Record<string, number>, Record<string, number>];
    facets = {
      source,
      jurisdiction,
      kind,
      relevance,
      area: Object.fromEntries(areaCounts.map((c) => [c.key, Number(c.n)])),
    };
  }
  return { items, nextCursor, facets };
}

/**
 * One document with its text and relations; null when the id is unknown, not a uuid, or (with
 * organizationId) outside that organisation's reach.
 */
export async function getDocument(
  database: Database,
  id: string,
  organizationId?: string,
): Promise<DocumentDetail | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [row] = await database.rows<
    Row & {
      record: SourceDocument;
      paragraphs: Paragraph[];
      section: string | null;
      epigraph: string | null;
      subjects: CodedLabel[];
      alerts: CodedLabel[];
      eurovoc: CodedLabel[];
      version: number;
    }
  >(
    sql`select ${itemColumns}, d.record, d.record->'provenance' as provenance, d.paragraphs, d.section, d.epigraph,
        d.subjects, d.alerts, d.eurovoc, d.version from documents d where d.id = ${id}::uuid
        and ${organizationId === undefined ? sql`true` : reachable(organizationId)}`,
  );
  if (!row) return null;
  const relations = await database.rows<{
    type: string;
    target_source_id: string;
    target_document_id: string | null;
    label: string;
  }>(
    sql`select type, target_source_id, target_document_id, label from document_relations where document_id = ${id}::uuid
        union all
        select r.type || ':inverse', s.source_id, s.id, r.label from document_relations r join documents s on s.id = r.document_id
        where r.target_document_id = ${id}::uuid
        order by 1, 2`,
  );
  const paragraphs = row.paragraphs ?? [];
  const item = toItem(row);
  if (organizationId !== undefined) {
    item.areas = applyCorrections(item.areas, (await correctionsOf(database.db, organizationId, [id])).get(id));
  }
  return {
    ...item,
    text: paragraphs.map((p) => p.text).join("\n\n"),
    paragraphs,
    relations: relations.map((r) => ({
      type: r.type,
      targetSourceId: r.target_source_id,
      documentId: r.target_document_id,
      label: r.label,
    })),
    links: row.record.links ?? {},
    section: row.section,
    epigraph: row.epigraph,
    subjects: row.subjects ?? [],
    alerts: row.alerts ?? [],
    eurovoc: row.eurovoc ?? [],
    notes: row.record.notes ?? [],
    feedName: row.record.feedName ?? null,
    version: row.version,
    replayedFrom: row.record.replayedFrom ?? null,
  };
}
