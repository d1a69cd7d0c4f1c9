/**
 * Deadlines in the daily digest (issue 26): a user's open work — triage items not yet decided or
 * done, and open obligations — assigned to them or to one of their groups, that is overdue or due
 * within their reminder window (reminder_settings.days_before, 3 by default), in the organisations
 * they still belong to and only for documents that organisation reaches. The digest channel lists
 * them after the day's documents (alerts/channels/digest), so the digest carries the reminders too;
 * and the obligations anchored to a law's article that changed, waiting for the user's review.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { reachable } from "../documents/reach.ts";
import { digestReviews } from "./law-anchors.ts";

export interface DeadlineItem {
  kind: "triage" | "obligation" | "review";
  title: string;
  documentTitle: string;
  documentId: string;
  /** YYYY-MM-DD; "" for a review */
  dueOn: string;
  /** A review: the article that changed, and the review page. */
  article?: string;
  path?: string;
}

/** At most this many deadlines in one digest (the soonest first); the triage list has the rest. */
export const digestDeadlineLimit = 30;

export async function digestDeadlines(database: Database, userId: string, today: string): Promise<DeadlineItem[]> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`bad day ${today}`);
  const rows = await database.rows<{
    kind: "triage" | "obligation";
    title: string;
    document_title: string;
    document_id: string;
    due_on: string;
  }>(sql`
    with teams as (select team_id from auth_team_member where user_id = ${userId}),
    orgs as (select organization_id from auth_member where user_id = ${userId}),
    horizon as (
      select ${today}::date + coalesce((select days_before from reminder_settings where user_id = ${userId}), 3) as last_day
    )
    select 'triage' as kind, d.title, d.title as document_title, t.document_id::text as document_id, t.due_on::text as due_on
    from triage_items t join documents d on d.id = t.document_id
    where t.organization_id in (select organization_id from orgs)
      and t.due_on is not null and t.due_on <= (select last_day from horizon)
      and t.status not in ('done', 'does_not_apply')
      and (t.assignee_user_id = ${userId} or t.assignee_team_id in (select team_id from teams))
      and ${reachable(sql`t.organization_id`)}
    union all
    select 'obligation', o.title, d.title, o.document_id::text, o.due_on::text
    from obligations o join documents d on d.id = o.document_id
    where o.organization_id in (select organization_id from orgs)
      and o.due_on is not null and o.due_on <= (select last_day from horizon)
      and o.status in ('open', 'in_progress')
      and (o.owner_user_id = ${userId} or o.owner_team_id in (select team_id from teams))
      and ${reachable(sql`o.organization_id`)}
    order by due_on, title
    limit ${digestDeadlineLimit}`);
  // Obligations whose anchored law article changed and wait for the user's review (issue 39): first.
  const reviews = (await digestReviews(database.db, userId)).map(
    (review): DeadlineItem => ({
      kind: "review",
      title: review.title,
      documentTitle: review.lawTitle,
      documentId: "",
      dueOn: "",
      article: review.blockTitle,
      path: `/app/obligations/${review.obligationId}/review`,
    }),
  );
  return [
    ...reviews,
    ...rows.map((row) => ({
      kind: row.kind,
      title: row.title,
      documentTitle: row.document_title,
      documentId: row.document_id,
      dueOn: row.due_on,
    })),
  ];
}
