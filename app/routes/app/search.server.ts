/**
 * The search page's and the home's side of searchDocuments: the URL's parameters validated by
 * the API's query schema (one set of filters for both), field errors in the reader's language,
 * and the results as the pages show them.
 */

import { type DocumentQuery, documentQuerySchema } from "../../.server/api/operations/documents.ts";
import type { Database } from "../../.server/db/client.ts";
import { type Facets, SearchParamsError, searchDocuments } from "../../.server/documents/search.ts";
import type { SourceId } from "../../.server/documents/types.ts";
import { type SearchFilterKey, searchFilterKeys } from "../../.server/searches/saved.ts";
import { zodLocales } from "../../.server/zod-locales.ts";
import type { Locale } from "../../i18n/locales.ts";
import { fieldErrorsOf } from "../../lib/field-errors.ts";

/** The filters a page keeps in its URL (everything but limit): the saved searches' keys. */
export const filterKeys = searchFilterKeys;
export type FilterKey = SearchFilterKey;
export type Filters = Partial<Record<FilterKey, string>>;

export interface ParsedQuery {
  /** The values as typed (to fill the form again), valid or not. */
  values: Filters;
  query: DocumentQuery | null;
  errors: Record<string, string[]>;
  cursor: string | undefined;
  /** The page number shown (cursor pages are counted by the links). */
  page: number;
}

export function parseSearchParams(search: URLSearchParams, locale: Locale, limit = 20): ParsedQuery {
  const values: Filters = {};
  for (const key of filterKeys) {
    const value = search.get(key);
    if (value !== null && value.trim() !== "") values[key] = value.slice(0, 500);
  }
  const cursor = search.get("cursor") || undefined;
  const pageNumber = Number(search.get("page") ?? "1");
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 10_000 ? pageNumber : 1;
  const result = documentQuerySchema.safeParse({ ...values, cursor, limit }, { error: zodLocales[locale] });
  if (result.success) return { values, query: result.data, errors: {}, cursor, page };
  return { values, query: null, errors: fieldErrorsOf(result.error.issues, { fallback: "q" }), cursor, page };
}

export interface ResultItem {
  id: string;
  source: SourceId;
  sourceId: string;
  title: string;
  language: "es" | "en";
  publishedOn: string;
  kind: string | null;
  department: string | null;
  jurisdiction: string | null;
  relevance: "high" | "medium" | "low" | null;
  sample: boolean;
  /** Safe HTML from searchDocuments: escaped text with <mark> only. */
  snippet: string | null;
}

export interface SearchOutcome {
  items: ResultItem[];
  nextCursor: string | null;
  facets: Facets | null;
  /** Every match (from the source facet, which counts all documents but for the source filter). */
  total: number | null;
}

export async function runSearch(
  database: Database,
  organizationId: string,
  query: DocumentQuery,
  options: { facets?: boolean } = {},
): Promise<SearchOutcome | "bad-cursor"> {
  try {
    const result = await searchDocuments(database, { ...query, organizationId, facets: options.facets ?? true });
    const sourceCounts = result.facets?.source;
    const total = sourceCounts
      ? query.source
        ? (sourceCounts[query.source] ?? 0)
        : Object.values(sourceCounts).reduce((n, c) => n + c, 0)
      : null;
    return {
      items: result.items.map((item) => ({
        id: item.id,
        source: item.source,
        sourceId: item.sourceId,
        title: item.title,
        language: item.language,
        publishedOn: item.publishedOn,
        kind: item.kind,
        department: item.department,
        jurisdiction: item.jurisdiction,
        relevance: item.relevance,
        sample: item.sample,
        snippet: item.snippet,
      })),
      nextCursor: result.nextCursor,
      facets: result.facets,
      total,
    };
  } catch (error) {
    if (error instanceof SearchParamsError) return "bad-cursor";
    throw error;
  }
}

/** The query string of these filters (and extra parameters), empty values left out. */
export function filtersQuery(values: Filters, extra: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const key of filterKeys) {
    const value = values[key];
    if (value) search.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
}
