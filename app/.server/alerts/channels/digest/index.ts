/**
 * The digest channel. The daily digest: a user's in-app alerts of one local day from profiles in digest mode, one entry
 * per document or law change (with every profile that matched it), then the user's deadlines as of the day it is sent
 * (overdue or due soon: the reminders' digest form), as a mail in the user's language.
 * enqueueDueDigests runs every hour (a pg-boss cron) and at every start: from the user's hour on
 * (a missed run catches up later the same day) it stores the previous local day's digest in the
 * deliveries outbox, once per user and day whatever the instances (the match key).
 * It prepares nothing per match (it reads the day's in-app alerts) and stores a rendered mail:
 * the mail channel's "mail" kind sends it.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reachable } from "../../../documents/reach.ts";
import { faultPoint } from "../../../kernel/fault.ts";
import type { Lang } from "../../profiles.ts";
import { readWhy, whyText } from "../../why.ts";
import type { AlertMail } from "../mail/ready.ts";
import type { AlertDirectory, ChannelModule, Recipient } from "../types.ts";
import { type DigestDeadline, type DigestItem, digestMail } from "./render.ts";

export { type DigestDeadline, type DigestItem, digestMail };

/** A user's deadlines as of a day, for the digest (the triage capability gives them; see services). */
export type DeadlineSource = (database: Database, userId: string, today: string) => Promise<DigestDeadline[]>;

/** Deliveries come from enqueueDueDigests, not from matches; they are "mail" rows (mail channel). */
export const digestChannel: ChannelModule = { id: "digest", deliveries: [] };

export interface DigestUser {
  userId: string;
  email: string;
  language: Lang;
  /** IANA zone of the user's hour; Europe/Madrid by default. */
  timeZone?: string;
}

/** undefined when the user had no alerts that day and no deadline. day: YYYY-MM-DD in the user's zone. */
export async function buildDigest(
  database: Database,
  user: DigestUser,
  day: string,
  options: { from: string; siteUrl: string; deadlines?: DeadlineSource | undefined; today?: string },
): Promise<AlertMail | undefined> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`bad day ${day}`);
  const zone = user.timeZone ?? "Europe/Madrid";
  const rows = await database.rows<{
    document_id: string;
    title: string;
    profile_id: string;
    profile_name: string | null;
    why: unknown;
    first: number;
  }>(sql`
    select a.document_id, a.title, a.profile_id, p.name as profile_name, min(a.id) as first,
      (array_agg(a.why order by a.id))[1] as why
    from alerts a left join alert_profiles p on p.id = a.profile_id
    where a.user_id = ${user.userId} and p.email_mode = 'digest' and (a.created_at at time zone ${zone})::date = ${day}::date
      and not exists (select 1 from documents d where d.id = a.document_id and not ${reachable(sql`p.organization_id`)})
    group by a.document_id, a.title, a.profile_id, p.name
    order by first`);
  const today = options.today ?? nextDay(day);
  const deadlines = options.deadlines ? await options.deadlines(database, user.userId, today) : [];
  if (!rows.length && !deadlines.length) return undefined;
  const items = new Map<string, DigestItem>();
  for (const row of rows) {
    const item = items.get(row.document_id) ?? { documentId: row.document_id, title: row.title, profiles: [] };
    // Why it matched, as the alert stored it (decision 0148), in the recipient's language.
    const why = readWhy(typeof row.why === "string" ? JSON.parse(row.why) : row.why);
    item.profiles.push({
      id: row.profile_id,
      name: row.profile_name ?? "—",
      ...(why ? { why: whyText(why, user.language, row.profile_name) } : {}),
    });
    items.set(row.document_id, item);
  }
  return digestMail([...items.values()], {
    from: options.from,
    to: user.email,
    language: user.language,
    day,
    siteUrl: options.siteUrl,
    userId: user.userId,
    deadlines,
    today,
  });
}

function localParts(now: Date, zone: string): { day: string; hour: number } {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { day: `${get("year")}-${get("month")}-${get("day")}`, hour: Number(get("hour")) };
}

function shiftDay(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
const previousDay = (day: string) => shiftDay(day, -1);
const nextDay = (day: string) => shiftDay(day, 1);

/** Enqueues the digests due at `now`; returns how many were newly stored. */
export async function enqueueDueDigests(
  database: Database,
  deps: { directory: AlertDirectory; from: string; siteUrl: string; now?: Date; deadlines?: DeadlineSource },
): Promise<number> {
  const now = deps.now ?? new Date();
  const profiles = await database.rows<{
    user_id: string | null;
    group_id: string | null;
    digest_hour: number;
    time_zone: string;
    organization_id: string;
  }>(sql`
    select distinct user_id, group_id, digest_hour, time_zone, organization_id from alert_profiles
    where email_mode = 'digest' and not muted`);
  const userIds = [...new Set(profiles.flatMap((p) => (p.user_id ? [p.user_id] : [])))];
  const groupIds = [...new Set(profiles.flatMap((p) => (p.group_id ? [p.group_id] : [])))];
  const [users, groups] = await Promise.all([
    userIds.length ? deps.directory.users(userIds) : new Map<string, Recipient>(),
    groupIds.length ? deps.directory.groupMembers(groupIds) : new Map<string, Recipient[]>(),
  ]);
  // One digest per user: the first due (zone, hour) among the user's digest profiles decides.
  const due = new Map<string, { recipient: Recipient; zone: string; day: string; organizationId: string }>();
  for (const profile of profiles) {
    const { day, hour } = localParts(now, profile.time_zone);
    // At the user's hour or later the same day: a run missed (server down, killed half-way)
    // catches up at the next one; the match key keeps it to one digest a day.
    if (hour < Number(profile.digest_hour)) continue;
    const recipients = profile.user_id
      ? [users.get(profile.user_id)].filter((r): r is Recipient => Boolean(r))
      : (groups.get(profile.group_id ?? "") ?? []);
    for (const recipient of recipients) {
      if (!due.has(recipient.userId))
        due.set(recipient.userId, {
          recipient,
          zone: profile.time_zone,
          day: previousDay(day),
          organizationId: profile.organization_id,
        });
    }
  }
  const keyOf = (userId: string, day: string) => `digest:${userId}:${day}`;
  const keys = [...due.values()].map(({ recipient, day }) => keyOf(recipient.userId, day));
  const done = new Set(
    keys.length
      ? (
          await database.rows<{ match_key: string }>(sql`
          select match_key from deliveries where channel = 'mail'
            and match_key in (select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))`)
        ).map((row) => row.match_key)
      : [],
  );
  let stored = 0;
  for (const { recipient, zone, day, organizationId } of due.values()) {
    if (done.has(keyOf(recipient.userId, day))) continue;
    const mail = await buildDigest(database, { ...recipient, timeZone: zone }, day, {
      from: deps.from,
      siteUrl: deps.siteUrl,
      deadlines: deps.deadlines,
    });
    if (!mail) continue;
    const rows = await database.rows(sql`
      insert into deliveries (id, match_key, channel, recipient, organization_id, payload)
      values (${randomUUID()}, ${keyOf(recipient.userId, day)}, 'mail', ${recipient.email}, ${organizationId}, ${JSON.stringify(mail)}::jsonb)
      on conflict do nothing returning id`);
    stored += rows.length;
    // One digest stored, the next not: a run killed half-way.
    faultPoint("digest.stored");
  }
  return stored;
}
