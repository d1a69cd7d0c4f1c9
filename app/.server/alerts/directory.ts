/**
 * The real AlertDirectory (auth tables: users and groups, suspended users left out) and the
 * DocumentLoader (the documents store) that matching and digests use in the running server.
 */

import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { madridDateDaysAgo } from "../../lib/madrid-date.ts";
import type { Database } from "../db/client.ts";
import { team, teamMember, user } from "../db/schema/auth.ts";
import { applyCorrections, correctionsOf } from "../documents/corrections.ts";
import { reachable } from "../documents/reach.ts";
import { getDocument } from "../documents/search.ts";
import type { AreaLabel } from "../documents/types.ts";
import type { AlertDirectory, DocumentLoader, Recipient } from "./matching.ts";
import type { FilterSet, MatchableDocument } from "./profiles.ts";

const active = or(isNull(user.banned), eq(user.banned, false));

function recipient(row: { id: string; email: string; locale: string }): Recipient {
  return { userId: row.id, email: row.email, language: row.locale === "en" ? "en" : "es" };
}

export function databaseDirectory(database: Database): AlertDirectory {
  const { db } = database;
  return {
    async users(ids) {
      if (!ids.length) return new Map();
      const rows = await db
        .select({ id: user.id, email: user.email, locale: user.locale })
        .from(user)
        .where(and(inArray(user.id, ids), active));
      return new Map(rows.map((row) => [row.id, recipient(row)]));
    },
    async groupMembers(ids) {
      const out = new Map<string, Recipient[]>(ids.map((id) => [id, []]));
      if (!ids.length) return out;
      const rows = await db
        .select({ teamId: teamMember.teamId, id: user.id, email: user.email, locale: user.locale })
        .from(teamMember)
        .innerJoin(user, eq(user.id, teamMember.userId))
        .innerJoin(team, eq(team.id, teamMember.teamId))
        .where(and(inArray(teamMember.teamId, ids), active));
      for (const row of rows) out.get(row.teamId)?.push(recipient(row));
      return out;
    },
  };
}

/**
 * A stored document as matching reads it: the API's Document (nulls kept: the webhook body is the
 * contract's Document), plus its text for keywords, not enumerable so that the webhook body's JSON
 * leaves it out.
 */
export function databaseDocuments(database: Database): DocumentLoader {
  return async (documentId) => {
    const detail = await getDocument(database, documentId);
    if (!detail) return undefined;
    const document: Record<string, unknown> = {
      id: detail.id,
      source: detail.source,
      sourceId: detail.sourceId,
      title: detail.title,
      language: detail.language,
      titles: detail.titles,
      publishedOn: detail.publishedOn,
      kind: detail.kind,
      rank: detail.rank,
      department: detail.department,
      jurisdiction: detail.jurisdiction,
      areas: detail.areas,
      relevance: detail.relevance,
      officialUrl: detail.officialUrl,
      effectiveDates: detail.effectiveDates,
      provenance: detail.provenance,
      sample: detail.sample,
    };
    Object.defineProperty(document, "text", { value: detail.text, enumerable: false });
    // Unclassified fields are null: no profile restricted on them matches (matches() compares ids).
    return document as unknown as MatchableDocument & Record<string, unknown>;
  };
}

/**
 * Documents published in the last `days` days (Europe/Madrid) within the organisation's reach that
 * pass a profile's structured filters (in SQL), with their text for the keywords: what the profile
 * preview tests. Newest first.
 */
export async function recentDocuments(
  database: Database,
  organizationId: string,
  filters: FilterSet,
  options: { days?: number; limit?: number } = {},
): Promise<MatchableDocument[]> {
  const since = madridDateDaysAgo(options.days ?? 30);
  const list = (values: string[]) =>
    sql`array[${sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    )}]::text[]`;
  const where = [sql`published_on >= ${since}`, reachable(organizationId)];
  // The organisation's own additions of an area count too (documents/corrections.ts), as in matching.
  if (filters.areas.length)
    where.push(
      sql`(exists (select 1 from jsonb_array_elements(coalesce(areas, '[]'::jsonb)) a where a->>'id' = any(${list(filters.areas)}))
        or d.id in (select c.document_id from area_corrections c where c.organization_id = ${organizationId}
          and c.action = 'add' and c.area = any(${list(filters.areas)})))`,
    );
  if (filters.jurisdictions.length) where.push(sql`jurisdiction = any(${list(filters.jurisdictions)})`);
  if (filters.kinds.length) where.push(sql`kind = any(${list(filters.kinds)})`);
  if (filters.sources.length) where.push(sql`source = any(${list(filters.sources)})`);
  if (filters.minRelevance > 0)
    where.push(
      sql`(case relevance when 'high' then 3 when 'medium' then 2 when 'low' then 1 else 0 end) >= ${filters.minRelevance}`,
    );
  const rows = await database.rows<{
    id: string;
    source: string;
    title: string;
    titles: { es?: string; en?: string } | null;
    jurisdiction: string | null;
    kind: string | null;
    relevance: "high" | "medium" | "low" | null;
    areas: AreaLabel[] | null;
    published_on: string;
    official_url: string;
    body_text: string;
  }>(sql`select id, source, title, titles, jurisdiction, kind, relevance, areas, published_on, official_url, body_text
    from documents d where ${sql.join(where, sql` and `)}
    order by published_on desc, id limit ${options.limit ?? 2000}`);
  // Matching reads each organisation's view of the areas (its removals out, its additions in).
  const corrections = await correctionsOf(
    database.db,
    organizationId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    source: row.source,
    title: row.title,
    titles: row.titles ?? {},
    text: row.body_text,
    // Unclassified fields stay null, as in matching (no profile restricted on them matches).
    jurisdiction: row.jurisdiction as string,
    kind: row.kind as string,
    relevance: row.relevance as MatchableDocument["relevance"],
    areas: applyCorrections(row.areas ?? [], corrections.get(row.id)),
    publishedOn: row.published_on,
    officialUrl: row.official_url,
  }));
}
