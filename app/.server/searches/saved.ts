/**
 * Saved searches (issue 39): a member names the search page's query and filters, lists them,
 * runs one again and deletes it. Per member within the organisation (another member's, or another
 * organisation's, is not found); the filters are validated by the search's own schema
 * (documentQuerySchema), so a saved search always opens. Creation and deletion are audited in
 * their transaction (`saved_search.created`, `saved_search.deleted`).
 */
import { randomUUID } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import { z } from "zod";
import { documentQuerySchema } from "../api/operations/documents.ts";
import type { Executor } from "../audit/executor.ts";
import { recordAudit } from "../audit/record.ts";
import { savedSearches } from "../db/schema/searches.ts";

/** The search page's URL parameters that make a search (everything but limit, cursor and page). */
export const searchFilterKeys = [
  "q",
  "source",
  "area",
  "jurisdiction",
  "kind",
  "relevance",
  "from",
  "to",
  "sort",
] as const;
export type SearchFilterKey = (typeof searchFilterKeys)[number];
export type SavedFilters = Partial<Record<SearchFilterKey, string>>;

/** A member keeps at most this many: a list to pick from, not an archive. */
export const maxSavedSearchesPerMember = 100;

/** The filters of a saved search: the search's own schema, unknown keys refused. */
export const savedFiltersSchema = documentQuerySchema
  .pick({
    q: true,
    source: true,
    area: true,
    jurisdiction: true,
    kind: true,
    relevance: true,
    from: true,
    to: true,
    sort: true,
  })
  .strict();

export const savedSearchNameSchema = z.string().trim().min(1).max(120);

export interface SavedSearchOwner {
  organizationId: string;
  userId: string;
}

export interface SavedSearchAudit {
  actor: { id: string; email: string };
  ip?: string | undefined;
  userAgent?: string | undefined;
  /** An API token's id when the change came through the API. */
  tokenId?: string | undefined;
}

export interface SavedSearch {
  id: string;
  name: string;
  filters: SavedFilters;
  createdAt: Date;
}

/** The filters as the search page's query string (`?q=…&area=…`), in the page's key order; "" when none. */
export function savedFiltersQuery(filters: SavedFilters, extra: Record<string, string> = {}): string {
  const search = new URLSearchParams();
  for (const key of searchFilterKeys) {
    const value = filters[key];
    if (value) search.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** The parsed filters (valid by the search's schema) as the strings a URL holds, empty ones left out. */
export function normaliseFilters(filters: z.output<typeof savedFiltersSchema>): SavedFilters {
  const out: SavedFilters = {};
  for (const key of searchFilterKeys) {
    const value = filters[key];
    if (typeof value === "string" && value.trim() !== "") out[key] = value.trim();
  }
  return out;
}

/** Whether the filters select anything (an empty search, however sorted, is not worth a name). */
export function selectsSomething(filters: SavedFilters): boolean {
  return searchFilterKeys.some((key) => key !== "sort" && Boolean(filters[key]));
}

export function savedSearchPaths(search: Pick<SavedSearch, "filters">) {
  return {
    searchPath: `/app/search${savedFiltersQuery(search.filters)}`,
    alertPath: `/app/profiles/new${savedFiltersQuery(search.filters, { fromSearch: "1" })}`,
  };
}

function ownedBy(owner: SavedSearchOwner) {
  return and(eq(savedSearches.organizationId, owner.organizationId), eq(savedSearches.userId, owner.userId));
}

function toSaved(row: typeof savedSearches.$inferSelect): SavedSearch {
  return { id: row.id, name: row.name, filters: row.filters as SavedFilters, createdAt: row.createdAt };
}

export async function listSavedSearches(db: Executor, owner: SavedSearchOwner): Promise<SavedSearch[]> {
  const rows = await db.select().from(savedSearches).where(ownedBy(owner)).orderBy(asc(savedSearches.name));
  return rows.map(toSaved);
}

export type SaveOutcome = { saved: SavedSearch } | { problem: "duplicate" | "limit" | "empty" };

/** Saves a search for `owner` (name already trimmed, filters already valid), audited; a problem otherwise. */
export async function createSavedSearch(
  db: Executor,
  owner: SavedSearchOwner,
  input: { name: string; filters: SavedFilters },
  audit: SavedSearchAudit,
): Promise<SaveOutcome> {
  if (!selectsSomething(input.filters)) return { problem: "empty" };
  return db.transaction(async (tx) => {
    const [held] = await tx.select({ n: count() }).from(savedSearches).where(ownedBy(owner));
    if ((held?.n ?? 0) >= maxSavedSearchesPerMember) return { problem: "limit" as const };
    const [row] = await tx
      .insert(savedSearches)
      .values({ id: randomUUID(), ...owner, name: input.name, filters: input.filters })
      .onConflictDoNothing()
      .returning();
    if (!row) return { problem: "duplicate" as const };
    await recordAudit(tx, {
      organizationId: owner.organizationId,
      actor: audit.actor,
      action: "saved_search.created",
      object: { type: "saved_search", id: row.id },
      ip: audit.ip,
      userAgent: audit.userAgent,
      detail: { name: row.name, filters: input.filters, ...(audit.tokenId ? { tokenId: audit.tokenId } : {}) },
    });
    return { saved: toSaved(row) };
  });
}

/** Deletes `owner`'s search `id`, audited; undefined when it is not theirs or not there. */
export async function deleteSavedSearch(
  db: Executor,
  owner: SavedSearchOwner,
  id: string,
  audit: SavedSearchAudit,
): Promise<SavedSearch | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(savedSearches)
      .where(and(ownedBy(owner), eq(savedSearches.id, id)))
      .returning();
    if (!row) return undefined;
    await recordAudit(tx, {
      organizationId: owner.organizationId,
      actor: audit.actor,
      action: "saved_search.deleted",
      object: { type: "saved_search", id: row.id },
      ip: audit.ip,
      userAgent: audit.userAgent,
      detail: { name: row.name, ...(audit.tokenId ? { tokenId: audit.tokenId } : {}) },
    });
    return toSaved(row);
  });
}
