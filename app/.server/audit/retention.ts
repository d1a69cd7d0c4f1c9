/**
 * AUDIT_RETENTION_DAYS: deletes each organisation's events older than the cutoff, oldest first
 * and always a prefix of the chain, and moves the organisation's anchor to the last deleted
 * event, so the kept chain verifies from its first event. The DELETE passes the table's
 * append-only trigger by setting app.audit_purge for its own transaction only.
 */
import { and, asc, count, eq, gte, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { auditAnchors, auditEvents } from "../db/schema/audit.ts";
import { auditLockClass } from "./executor.ts";
import { signAnchor } from "./head.ts";

export interface PurgeResult {
  organizations: number;
  events: number;
}

/** Events deleted per transaction: keeps each transaction and its lock short. */
const batchSize = 5000;

export async function purgeAuditEvents(db: Db, retentionDays: number, now: Date = new Date()): Promise<PurgeResult> {
  if (!Number.isFinite(retentionDays) || retentionDays <= 0) throw new RangeError("retentionDays must be positive");
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const organizations = await db
    .selectDistinct({ id: auditEvents.organizationId })
    .from(auditEvents)
    .where(lt(auditEvents.at, cutoff));
  let events = 0;
  for (const { id } of organizations) {
    for (;;) {
      const deleted = await purgeBatch(db, id, cutoff);
      events += deleted;
      if (deleted < batchSize) break;
    }
  }
  return { organizations: organizations.length, events };
}

async function purgeBatch(db: Db, organizationId: string, cutoff: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${sql.raw(String(auditLockClass))}, hashtext(${organizationId}))`,
    );
    const org = eq(auditEvents.organizationId, organizationId);
    // Everything before the first event that is still young enough to keep (a prefix by seq),
    // at most batchSize events.
    const [firstKept] = await tx
      .select({ seq: auditEvents.seq })
      .from(auditEvents)
      .where(and(org, gte(auditEvents.at, cutoff)))
      .orderBy(asc(auditEvents.seq))
      .limit(1);
    const [first] = await tx
      .select({ seq: auditEvents.seq })
      .from(auditEvents)
      .where(org)
      .orderBy(asc(auditEvents.seq))
      .limit(1);
    if (!first) return 0;
    const lastPurgeable = Math.min(firstKept ? firstKept.seq - 1 : Number.MAX_SAFE_INTEGER, first.seq + batchSize - 1);
    const [last] = await tx
      .select({ seq: auditEvents.seq, hash: auditEvents.hash, at: auditEvents.at })
      .from(auditEvents)
      .where(and(org, lte(auditEvents.seq, lastPurgeable)))
      .orderBy(sql`${auditEvents.seq} desc`)
      .limit(1);
    if (!last) return 0;
    const [counted] = await tx
      .select({ n: count() })
      .from(auditEvents)
      .where(and(org, lte(auditEvents.seq, last.seq)));
    const purged = counted?.n ?? 0;
    // Signed (decision 0084): an anchor written by anyone without AUTH_SECRET fails verification.
    const signature = signAnchor(organizationId, last.seq, last.hash, last.at);
    await tx
      .insert(auditAnchors)
      .values({ organizationId, seq: last.seq, hash: last.hash, at: last.at, purgedEvents: purged, signature })
      .onConflictDoUpdate({
        target: auditAnchors.organizationId,
        set: {
          seq: last.seq,
          hash: last.hash,
          at: last.at,
          signature,
          purgedAt: sql`now()`,
          purgedEvents: sql`${auditAnchors.purgedEvents} + ${purged}`,
        },
      });
    await tx.execute(sql`select set_config('app.audit_purge', 'on', true)`);
    await tx.delete(auditEvents).where(and(org, lte(auditEvents.seq, last.seq)));
    await tx.execute(sql`select set_config('app.audit_purge', 'off', true)`);
    return purged;
  });
}
