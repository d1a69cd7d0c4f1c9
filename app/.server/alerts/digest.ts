/**
 * The daily digest: a user's in-app alerts of one local day, one entry per document (with every
 * profile that matched it), as a mail in the user's language.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { type AlertMail, type DigestItem, digestMail } from "./messages.ts";
import type { Lang } from "./profiles.ts";

export interface DigestUser {
  userId: string;
  email: string;
  language: Lang;
  /** IANA zone of the user's hour; Europe/Madrid by default. */
  timeZone?: string;
}

/** undefined when the user had no alerts that day. day: YYYY-MM-DD in the user's zone. */
export async function buildDigest(
  database: Database,
  user: DigestUser,
  day: string,
  options: { from: string; siteUrl: string },
): Promise<AlertMail | undefined> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`bad day ${day}`);
  const zone = user.timeZone ?? "Europe/Madrid";
  const rows = await database.rows<{
    document_id: string;
    title: string;
    profile_id: string;
    profile_name: string | null;
    first: number;
  }>(sql`
    select a.document_id, a.title, a.profile_id, p.name as profile_name, min(a.id) as first
    from alerts a left join alert_profiles p on p.id = a.profile_id
    where a.user_id = ${user.userId} and (a.created_at at time zone ${zone})::date = ${day}::date
    group by a.document_id, a.title, a.profile_id, p.name
    order by first`);
  if (!rows.length) return undefined;
  const items = new Map<string, DigestItem>();
  for (const row of rows) {
    const item = items.get(row.document_id) ?? { documentId: row.document_id, title: row.title, profiles: [] };
    item.profiles.push({ id: row.profile_id, name: row.profile_name ?? "—" });
    items.set(row.document_id, item);
  }
  return digestMail([...items.values()], {
    from: options.from,
    to: user.email,
    language: user.language,
    day,
    siteUrl: options.siteUrl,
    userId: user.userId,
  });
}
