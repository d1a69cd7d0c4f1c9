/** The notification centre's reads and writes: unread counts, mark read, the SSE replay. */
import { and, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { alerts } from "../db/schema.ts";

/** The channel NOTIFY carries new alert ids on (payload: the alert id). */
export const alertsChannel = "regwatch_alerts";
/** The channel matchDocument NOTIFYs when it stored deliveries: delivery workers wake at once instead of at their next poll. */
export const deliveriesChannel = "regwatch_deliveries";

export interface AlertEvent {
  alertId: number;
  documentId: string;
  title: string;
  profileId: string;
}

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
    .select({ alertId: alerts.id, documentId: alerts.documentId, title: alerts.title, profileId: alerts.profileId })
    .from(alerts)
    .where(and(eq(alerts.userId, userId), gt(alerts.id, afterId)))
    .orderBy(newestFirst ? desc(alerts.id) : alerts.id)
    .limit(limit);
  return rows;
}
