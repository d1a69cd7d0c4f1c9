/**
 * What a calendar feed holds: entry-into-force dates of followed (alert-profile-matched) and
 * triaged documents, and the due dates of open triage items and obligations. A member's feed:
 * their own profiles and assignments and their groups'; the organisation's: all of it. Every
 * document goes through the organisation reach rule. UIDs are stable so that a changed due date
 * moves the event in the subscriber's calendar instead of adding another.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { reachable } from "../documents/reach.ts";
import type { LiveFeed } from "./feeds.ts";

export type CalendarEventKind = "entry_into_force" | "triage_due" | "obligation_due";

export interface CalendarEvent {
  uid: string;
  kind: CalendarEventKind;
  /** All-day date, YYYY-MM-DD. */
  date: string;
  title: string;
  documentId: string;
  /** Obligations: the obligation's own title; otherwise null. */
  detail: string | null;
}

/** The feed covers a year back and two years ahead: enough for any client, bounded for the server. */
const daysBack = 366;
const daysAhead = 731;
/** At most this many events per kind. */
const maxPerKind = 2000;

export interface FeedOwnerInfo {
  /** The holder's groups (member feeds), [] for the organisation's feed. */
  groupIds: string[];
  locale: "es" | "en";
  organizationName: string;
}

/**
 * Who the feed speaks for, or undefined when the feed no longer stands: a member's feed while they
 * are a member and not banned; the organisation's while its creator is still an owner or admin
 * (the API tokens' standing rule, decision 0082).
 */
export async function feedStanding(database: Database, feed: LiveFeed): Promise<FeedOwnerInfo | undefined> {
  const holder = feed.userId;
  const [row] = await database.rows<{ role: string; banned: boolean | null; locale: string | null; org: string }>(sql`
    select m.role, u.banned, u.locale, o.name as org
    from calendar_feeds f
    join auth_member m on m.organization_id = f.organization_id and m.user_id = coalesce(f.user_id, f.created_by)
    join auth_user u on u.id = m.user_id
    join auth_organization o on o.id = f.organization_id
    where f.id = ${feed.id}::uuid`);
  if (!row || row.banned) return undefined;
  if (holder === null && row.role !== "owner" && row.role !== "admin") return undefined;
  const groups = holder
    ? await database.rows<{ id: string }>(sql`select t.id from auth_team_member tm join auth_team t on t.id = tm.team_id
        where tm.user_id = ${holder} and t.organization_id = ${feed.organizationId}`)
    : [];
  return { groupIds: groups.map((g) => g.id), locale: row.locale === "en" ? "en" : "es", organizationName: row.org };
}

function textArray(values: string[]) {
  return values.length
    ? sql`array[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`
    : sql`array[]::text[]`;
}

export async function calendarEvents(
  database: Database,
  feed: LiveFeed,
  owner: FeedOwnerInfo,
  now: Date = new Date(),
): Promise<CalendarEvent[]> {
  const org = feed.organizationId;
  const user = feed.userId;
  const groups = textArray(owner.groupIds);
  const from = new Date(now.getTime() - daysBack * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(now.getTime() + daysAhead * 86_400_000).toISOString().slice(0, 10);
  // Whose profiles and assignments count: the member and their groups, or everyone in the organisation.
  const profileOf = user ? sql`(p.user_id = ${user} or p.group_id = any(${groups}))` : sql`true`;
  const assigned = (userColumn: string, teamColumn: string) =>
    user ? sql`(${sql.raw(userColumn)} = ${user} or ${sql.raw(teamColumn)} = any(${groups}))` : sql`true`;

  const entries = await database.rows<{ id: string; title: string; day: string }>(sql`
    select d.id, d.title, e.day
    from documents d
    cross join lateral jsonb_array_elements_text(d.effective_dates) as e(day)
    where ${reachable(org)}
      and e.day >= ${from} and e.day <= ${to}
      and (
        exists (select 1 from alert_matches m join alert_profiles p on p.id = m.profile_id
          where m.document_id = d.id and p.organization_id = ${org} and ${profileOf})
        or exists (select 1 from triage_items ti where ti.document_id = d.id and ti.organization_id = ${org}
          and ${assigned("ti.assignee_user_id", "ti.assignee_team_id")})
      )
    order by e.day, d.id
    limit ${maxPerKind}`);

  const triage = await database.rows<{ id: string; title: string; day: string }>(sql`
    select d.id, d.title, ti.due_on::text as day
    from triage_items ti join documents d on d.id = ti.document_id
    where ti.organization_id = ${org} and ${reachable(org)}
      and ti.due_on is not null and ti.status not in ('done', 'does_not_apply')
      and ti.due_on >= ${from}::date and ti.due_on <= ${to}::date
      and ${assigned("ti.assignee_user_id", "ti.assignee_team_id")}
    order by ti.due_on, d.id
    limit ${maxPerKind}`);

  const obligations = await database.rows<{
    id: string;
    document_id: string;
    title: string;
    doc_title: string;
    day: string;
  }>(sql`
    select o.id, o.document_id, o.title, d.title as doc_title, o.due_on::text as day
    from obligations o join documents d on d.id = o.document_id
    where o.organization_id = ${org} and ${reachable(org)}
      and o.due_on is not null and o.status not in ('done', 'not_applicable')
      and o.due_on >= ${from}::date and o.due_on <= ${to}::date
      and ${assigned("o.owner_user_id", "o.owner_team_id")}
    order by o.due_on, o.id
    limit ${maxPerKind}`);

  const day = (value: string) => value.slice(0, 10);
  return [
    ...entries.map((row) => ({
      uid: `entry-into-force-${row.id}-${day(row.day)}@vigia-normativo`,
      kind: "entry_into_force" as const,
      date: day(row.day),
      title: row.title,
      documentId: row.id,
      detail: null,
    })),
    ...triage.map((row) => ({
      uid: `triage-${org}-${row.id}@vigia-normativo`,
      kind: "triage_due" as const,
      date: day(row.day),
      title: row.title,
      documentId: row.id,
      detail: null,
    })),
    ...obligations.map((row) => ({
      uid: `obligation-${row.id}@vigia-normativo`,
      kind: "obligation_due" as const,
      date: day(row.day),
      title: row.doc_title,
      documentId: row.document_id,
      detail: row.title,
    })),
  ].sort((a, b) => a.date.localeCompare(b.date) || a.uid.localeCompare(b.uid));
}
