/** The notification centre's reads and writes: unread counts, mark read, the SSE replay. */
import { and, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { alertProfiles, alerts } from "../db/schema.ts";
import type { Lang } from "./profiles.ts";
import { readWhy, whyText } from "./why.ts";

/** The channel NOTIFY carries new alert ids on (payload: the alert id). */
export const alertsChannel = "regwatch_alerts";
/** The channel matchDocument NOTIFYs when it stored deliveries: delivery workers wake at once instead of at their next poll. */
export const deliveriesChannel = "regwatch_deliveries";

/** A stored alert as the event stream reads it back (the why is worded per page, in its language). */
export interface AlertEvent {
  alertId: number;
  documentId: string;
  title: string;
  profileId: string;
  /** The profile's current name (null once deleted). */
  profileName: string | null;
  /** Why it matched, as stored with the alert (alerts/why.ts); null for older alerts. */
  why: unknown;
}

/** The columns of an AlertEvent (with the profile joined): one list for the replay and the live read. */
export const alertEventColumns = {
  alertId: alerts.id,
  documentId: alerts.documentId,
  title: alerts.title,
  profileId: alerts.profileId,
  profileName: alertProfiles.name,
  why: alerts.why,
};

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(alerts)
    .where(and(eq(alerts.userId, userId), isNull(alerts.readAt)));
  return row?.n ?? 0;
}

export async function markRead(db: Db, userId: string, alertIds: number[]): Promise<number> {
  if (!alertIds.length) return 0;
  const rows = await db
    .update(alerts)
    .set({ readAt: new Date() })
    .where(and(eq(alerts.userId, userId), inArray(alerts.id, alertIds), isNull(alerts.readAt)))
    .returning({ id: alerts.id });
  return rows.length;
}

export async function markDocumentAlertsRead(db: Db, userId: string, documentId: string): Promise<number> {
  const rows = await db
    .update(alerts)
    .set({ readAt: new Date() })
    .where(and(eq(alerts.userId, userId), eq(alerts.documentId, documentId), isNull(alerts.readAt)))
    .returning({ id: alerts.id });
  return rows.length;
}

/** A user's alerts after an id, oldest first (Last-Event-ID replay); newestFirst for the latest one. */
export async function alertsAfter(
  db: Db,
  userId: string,
  afterId: number,
  limit = 500,
  newestFirst = false,
): Promise<AlertEvent[]> {
  const rows = await db
    .select(alertEventColumns)
    .from(alerts)
    .leftJoin(alertProfiles, eq(alertProfiles.id, alerts.profileId))
    .where(and(eq(alerts.userId, userId), gt(alerts.id, afterId)))
    .orderBy(newestFirst ? desc(alerts.id) : alerts.id)
    .limit(limit);
  return rows;
}

export interface InboxAlert extends AlertEvent {
  createdAt: Date;
  readAt: Date | null;
}

/** A user's latest alerts, newest first, with their profile's name (the notification centre and /app/alerts). */
export async function recentAlerts(
  db: Db,
  userId: string,
  options: { limit?: number; beforeId?: number; unreadOnly?: boolean } = {},
): Promise<InboxAlert[]> {
  const rows = await db
    .select({
      ...alertEventColumns,
      createdAt: alerts.createdAt,
      readAt: alerts.readAt,
    })
    .from(alerts)
    .leftJoin(alertProfiles, eq(alertProfiles.id, alerts.profileId))
    .where(
      and(
        eq(alerts.userId, userId),
        options.beforeId ? lt(alerts.id, options.beforeId) : undefined,
        options.unreadOnly ? isNull(alerts.readAt) : undefined,
      ),
    )
    .orderBy(desc(alerts.id))
    .limit(options.limit ?? 10);
  return rows;
}

/** The newest alert id of a user (0 without alerts): where a freshly rendered page's event stream starts. */
export async function latestAlertId(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ id: sql<number>`coalesce(max(${alerts.id}), 0)::bigint` })
    .from(alerts)
    .where(eq(alerts.userId, userId));
  return Number(row?.id ?? 0);
}

export async function markAllRead(db: Db, userId: string): Promise<number> {
  const rows = await db
    .update(alerts)
    .set({ readAt: new Date() })
    .where(and(eq(alerts.userId, userId), isNull(alerts.readAt)))
    .returning({ id: alerts.id });
  return rows.length;
}

/** An alert's why in the reader's words (the Alerts page's wording), or null for alerts stored before there was one. */
export function alertWhyText(alert: { why: unknown; profileName: string | null }, locale: Lang): string | null {
  const why = readWhy(alert.why);
  return why ? whyText(why, locale, alert.profileName) : null;
}

/** The notification centre's data: unread count, newest id, the latest few alerts, each saying why in the reader's language. */
export async function alertSummary(db: Db, userId: string, locale: Lang, limit = 8) {
  const [unread, latestId, recent] = await Promise.all([
    unreadCount(db, userId),
    latestAlertId(db, userId),
    recentAlerts(db, userId, { limit }),
  ]);
  return {
    unread,
    latestId,
    recent: recent.map((alert) => ({
      alertId: alert.alertId,
      documentId: alert.documentId,
      title: alert.title,
      profileName: alert.profileName,
      why: alertWhyText(alert, locale),
      createdAt: alert.createdAt.toISOString(),
      read: alert.readAt !== null,
    })),
  };
}
