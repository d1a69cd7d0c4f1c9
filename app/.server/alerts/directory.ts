/**
 * The real AlertDirectory (auth tables: users and groups, suspended users left out) and the
 * DocumentLoader (the documents store) that matching and digests use in the running server.
 */
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { team, teamMember, user } from "../db/schema/auth.ts";
import { getDocument } from "../documents/search.ts";
import type { AlertDirectory, DocumentLoader, Recipient } from "./matching.ts";
import type { MatchableDocument } from "./profiles.ts";

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

/** Documents published in the last `days` days (Europe/Madrid), with their text: what the profile preview tests. */
export async function recentDocuments(database: Database, days = 30, limit = 5000): Promise<MatchableDocument[]> {
  const since = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(
    new Date(Date.now() - days * 86_400_000),
  );
  const rows = await database.rows<{
    id: string;
    source: string;
    title: string;
    titles: { es?: string; en?: string } | null;
    jurisdiction: string | null;
    kind: string | null;
    relevance: "high" | "medium" | "low" | null;
    areas: { id: string }[] | null;
    published_on: string;
    official_url: string;
    body_text: string;
  }>(sql`select id, source, title, titles, jurisdiction, kind, relevance, areas, published_on, official_url, body_text
    from documents where published_on >= ${since} order by published_on desc, id limit ${limit}`);
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
    areas: row.areas ?? [],
    publishedOn: row.published_on,
    officialUrl: row.official_url,
  }));
}
