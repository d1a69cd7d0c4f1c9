/**
 * A search (the search page's query and filters) as an alert profile's form values, and what of
 * it an alert cannot keep. Every search filter is named here: q → the saved query (same syntax:
 * "phrases", -exclusions, OR, word*; but words as typed, without the search's word forms and
 * translations), source/area/jurisdiction/kind → one-item lists, relevance → the minimum
 * relevance (exact only for "high"), from/to → none (an alert hears about what is published from
 * now on), sort → none (not a filter).
 */

import { emptyProfileValues, type ProfileFormValues } from "../../lib/profile-form.ts";
import { areas, jurisdictions, kinds } from "../../lib/taxonomy.ts";
import type { DocumentQuery } from "../api/operations/documents.ts";

/** What the profile will do differently from the search, each said on the page. */
export type SearchNote = "query-forms" | "relevance-minimum" | "dates";

/** The search filters as the profile form's fields; `relevance` etc. in their query-string form. */
export type SearchFilters = Pick<
  DocumentQuery,
  "q" | "source" | "area" | "jurisdiction" | "kind" | "relevance" | "from" | "to" | "sort"
>;

export interface ProfileFromSearch {
  values: ProfileFormValues;
  notes: SearchNote[];
}

/** A name the member can change: the query, else the filters' names; `fallback` when neither. */
export function searchName(filters: SearchFilters, locale: "es" | "en", fallback: string): string {
  const q = filters.q?.trim();
  if (q) return q.slice(0, 120);
  const named = [
    filters.area ? areas.find((a) => a.id === filters.area)?.name[locale] : undefined,
    filters.jurisdiction ? jurisdictions.find((j) => j.id === filters.jurisdiction)?.name[locale] : undefined,
    filters.kind ? kinds.find((k) => k.id === filters.kind)?.name[locale] : undefined,
  ].filter((name): name is string => Boolean(name));
  return (named.join(" · ") || fallback).slice(0, 120);
}

export function profileFromSearch(
  filters: SearchFilters,
  locale: "es" | "en",
  fallbackName: string,
): ProfileFromSearch {
  const values = emptyProfileValues(locale);
  const notes: SearchNote[] = [];
  values.name = searchName(filters, locale, fallbackName);
  const q = filters.q?.trim();
  if (q) {
    values.query = q;
    notes.push("query-forms");
  }
  if (filters.source) values.sources = [filters.source];
  if (filters.area) values.areas = [filters.area];
  if (filters.jurisdiction) values.jurisdictions = [filters.jurisdiction];
  if (filters.kind) values.kinds = [filters.kind];
  if (filters.relevance) {
    values.minRelevance = filters.relevance;
    if (filters.relevance !== "high") notes.push("relevance-minimum");
  }
  if (filters.from || filters.to) notes.push("dates");
  return { values, notes };
}
