/**
 * Reminders before a due date (issue 26): for every open triage item and obligation with a due
 * date, each person it is assigned to (the member, or every member of the group) gets, at the hour
 * they chose (Europe/Madrid, reminder_settings; 9 h and 3 days before by default), once per item,
 * person and due date (reminders_sent): an in-app notification (the notification centre) and, unless
 * they turned mail off, a mail through the platform mail outbox. Moving a due date reminds again.
 *
 * `runReminders(database, { now })` is the job: the hourly alerts schedule calls it today (one line
 * in alerts/service.ts); it is a plain function so that the jobs kernel can take it as it is.
 */

import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { alertsChannel } from "../alerts/inbox.ts";
import type { Database } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import { mailOutbox } from "../db/schema/auth.ts";
import { reachable } from "../documents/reach.ts";
import { faultPoint } from "../kernel/fault.ts";
import { madridDay, madridHour } from "./due-date.ts";
import { type ReminderMailItem, reminderMail } from "./reminder-mail.ts";

/** The notification centre's rows need a profile id: reminders of triage items use this one (no profile has it). */
export const triageReminderProfileId = "00000000-0000-4000-8000-000000000026";

interface Due {
  kind: "triage" | "obligation";
  item_key: string;
  user_id: string;
  email: string;
  locale: string;
  mail: boolean;
  due_on: string;
  document_id: string;
  title: string;
  document_title: string;
  /** An obligation's id (its own notification row), else null. */
  obligation_id: string | null;
}

export interface ReminderRun {
  reminders: number;
  mails: number;
}

/** The reminders due at `now`, stored and queued once. */
export async function runReminders(database: Database, options: { now?: Date; siteUrl: string }): Promise<ReminderRun> {
  const now = options.now ?? new Date();
  const today = madridDay(now);
  const hour = madridHour(now);
  // Recipients of open items: the assigned member, or the members of the assigned group (active users
  // only, and still members of the organisation); their settings or the defaults (9 h, 3 days, mail on).
  const due = await database.rows<Due>(sql`
    with work as (
      select 'triage' as kind, t.organization_id || '/' || t.document_id as item_key, t.organization_id,
        t.document_id, d.title, d.title as document_title, t.due_on, t.assignee_user_id as user_id,
        t.assignee_team_id as team_id, null::text as obligation_id
      from triage_items t join documents d on d.id = t.document_id
      where t.due_on is not null and t.due_on >= ${today}::date and t.status not in ('done', 'does_not_apply')
        and (t.assignee_user_id is not null or t.assignee_team_id is not null) and ${reachable(sql`t.organization_id`)}
      union all
      select 'obligation', o.id::text, o.organization_id, o.document_id, o.title, d.title, o.due_on,
        o.owner_user_id, o.owner_team_id, o.id::text
      from obligations o join documents d on d.id = o.document_id
      where o.due_on is not null and o.due_on >= ${today}::date and o.status in ('open', 'in_progress')
        and (o.owner_user_id is not null or o.owner_team_id is not null) and ${reachable(sql`o.organization_id`)}
    ), people as (
      select w.*, w.user_id as recipient from work w where w.user_id is not null
      union
      select w.*, tm.user_id from work w join auth_team_member tm on tm.team_id = w.team_id where w.team_id is not null
    )
    select p.kind, p.item_key, p.recipient as user_id, u.email, u.locale, coalesce(s.mail, true) as mail,
      p.due_on::text as due_on, p.document_id, p.title, p.document_title, p.obligation_id
    from people p
    join auth_user u on u.id = p.recipient and coalesce(u.banned, false) = false
    join auth_member m on m.user_id = p.recipient and m.organization_id = p.organization_id
    left join reminder_settings s on s.user_id = p.recipient
    where coalesce(s.hour, 9) <= ${hour}
      and p.due_on - coalesce(s.days_before, 3) <= ${today}::date
      and not exists (select 1 from reminders_sent r where r.kind = p.kind and r.item_key = p.item_key
        and r.user_id = p.recipient and r.due_on = p.due_on)
    order by p.due_on, p.item_key`);
  let reminders = 0;
  let mails = 0;
  for (const row of due) {
    const sent = await database.db.transaction(async (tx) => {
      // The once-only guarantee across instances: the primary key of reminders_sent.
      const claimed = await rowsOf(
        tx,
        sql`insert into reminders_sent (kind, item_key, user_id, due_on)
        values (${row.kind}, ${row.item_key}, ${row.user_id}, ${row.due_on}::date) on conflict do nothing
        returning user_id`,
      );
      if (claimed.length === 0) return null;
      const language = row.locale === "en" ? "en" : "es";
      const item: ReminderMailItem = {
        kind: row.kind,
        title: row.title,
        documentTitle: row.document_title,
        documentId: row.document_id,
        dueOn: row.due_on,
      };
      const mail = reminderMail(item, { language, siteUrl: options.siteUrl, today });
      // In the notification centre: a row of its own, unread again when a moved due date reminds anew.
      const profileId = row.obligation_id ?? triageReminderProfileId;
      await tx.execute(sql`delete from alerts where user_id = ${row.user_id} and document_id = ${row.document_id}::uuid
        and profile_id = ${profileId}::uuid`);
      const inserted = (await tx.execute(sql`insert into alerts (user_id, document_id, profile_id, title)
        values (${row.user_id}, ${row.document_id}::uuid, ${profileId}::uuid, ${mail.notice}) returning id`)) as unknown as {
        rows: { id: number | string }[];
      };
      const id = inserted.rows[0]?.id;
      if (id !== undefined) await tx.execute(sql`select pg_notify(${alertsChannel}, ${String(id)})`);
      if (row.mail) {
        await tx.insert(mailOutbox).values({
          id: randomUUID(),
          kind: "reminder",
          to: row.email,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
      }
      return row.mail;
    });
    if (sent === null) continue;
    // One reminder committed (claim, notification, mail row), the next not: a run killed half-way.
    faultPoint("reminder.stored");
    reminders += 1;
    if (sent) mails += 1;
  }
  return { reminders, mails };
}
