/**
 * What a profile's Atom feed holds and for whom: the documents the profile matched (alert_matches),
 * newest match first, each through the organisation reach rule at read time (a feed's documents
 * are those the organisation may see today), with the match's reasons. The feed stands while its
 * maker is a member, not suspended, and may still manage the profile: their own profile, or a
 * group's while they are an owner or admin. A law follow has no feed (its matches are law changes).
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { reachable } from "../documents/reach.ts";
import type { LiveProfileFeed } from "./tokens.ts";

/** A reader polls often; the newest matches are what it needs. */
export const feedEntryLimit = 100;

export interface FeedHolder {
  profileName: string;
  locale: "es" | "en";
}

export interface FeedEntry {
  matchId: string;
  matchedAt: Date;
  /** alert_matches.reasons: why it matched (alerts/why.ts), or the older list of "area:aml"-style strings. */
  reasons: unknown;
  documentId: string;
  title: string;
  publishedOn: string;
  officialUrl: string | null;
  sourceId: string;
}

export async function feedHolder(database: Database, feed: LiveProfileFeed): Promise<FeedHolder | undefined> {
  const [row] = await database.rows<{
    name: string;
    user_id: string | null;
    group_id: string | null;
    law_id: string | null;
    role: string;
    banned: boolean | null;
    locale: string | null;
  }>(sql`
    select p.name, p.user_id, p.group_id, p.law_id, m.role, u.banned, u.locale
    from profile_feeds f
    join alert_profiles p on p.id = f.profile_id and p.organization_id = f.organization_id
    join auth_member m on m.organization_id = f.organization_id and m.user_id = f.created_by
    join auth_user u on u.id = m.user_id
    where f.id = ${feed.id}::uuid`);
  if (!row || row.banned || row.law_id) return undefined;
  const mayManage = row.user_id
    ? row.user_id === feed.createdBy
    : Boolean(row.group_id) && (row.role === "owner" || row.role === "admin");
  if (!mayManage) return undefined;
  return { profileName: row.name, locale: row.locale === "en" ? "en" : "es" };
}

export async function feedEntries(database: Database, feed: LiveProfileFeed): Promise<FeedEntry[]> {
  const rows = await database.rows<{
    match_id: string;
    created_at: Date | string;
    reasons: unknown;
    id: string;
    title: string;
    published_on: string;
    official_url: string | null;
    source_id: string;
  }>(sql`
    select m.id as match_id, m.created_at, m.reasons, d.id, d.title, d.published_on::text as published_on,
      d.official_url, d.source_id
    from alert_matches m
    join documents d on d.id = m.document_id
    where m.profile_id = ${feed.profileId}::uuid and ${reachable(feed.organizationId)}
    order by m.created_at desc, m.id
    limit ${feedEntryLimit}`);
  return rows.map((row) => ({
    matchId: row.match_id,
    matchedAt: new Date(row.created_at),
    reasons: row.reasons,
    documentId: row.id,
    title: row.title,
    publishedOn: row.published_on,
    officialUrl: row.official_url,
    sourceId: row.source_id,
  }));
}
