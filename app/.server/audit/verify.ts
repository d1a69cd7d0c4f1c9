/**
 * Recomputes an organisation's chain from its anchor (or the genesis hash) and names the first
 * event whose position, previous hash or own hash does not match: the row that was changed,
 * or the one after a deleted row. Reads in batches inside one repeatable-read snapshot, so
 * events written meanwhile or a purge running at the same time cannot make a sound chain look
 * broken.
 */
import { and, asc, count, eq, gt } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { auditAnchors, auditEvents } from "../db/schema/audit.ts";
import { eventHash, genesisHash } from "./chain.ts";
import { rowToEvent } from "./record.ts";

export interface ChainVerification {
  valid: boolean;
  /** Events of the organisation now kept (after retention). */
  events: number;
  /** Id of the first event that does not chain, or null when the chain is whole. */
  firstBroken: string | null;
}

export async function verifyAuditChain(
  db: Db,
  organizationId: string,
  options: { batchSize?: number } = {},
): Promise<ChainVerification> {
  const batchSize = options.batchSize ?? 1000;
  return db.transaction(
    async (tx) => {
      const [anchor] = await tx.select().from(auditAnchors).where(eq(auditAnchors.organizationId, organizationId));
      let expectedSeq = (anchor?.seq ?? 0) + 1;
      let prevHash = anchor?.hash ?? genesisHash;
      let firstBroken: string | null = null;
      let lastSeq = -Infinity;
      while (firstBroken === null) {
        const rows = await tx
          .select()
          .from(auditEvents)
          .where(
            and(
              eq(auditEvents.organizationId, organizationId),
              Number.isFinite(lastSeq) ? gt(auditEvents.seq, lastSeq) : undefined,
            ),
          )
          .orderBy(asc(auditEvents.seq))
          .limit(batchSize);
        for (const row of rows) {
          const event = rowToEvent(row);
          if (event.seq !== expectedSeq || event.prevHash !== prevHash || event.hash !== eventHash(prevHash, event)) {
            firstBroken = event.id;
            break;
          }
          expectedSeq += 1;
          prevHash = event.hash;
        }
        if (rows.length < batchSize) break;
        lastSeq = rows[rows.length - 1]?.seq ?? lastSeq;
      }
      const [total] = await tx
        .select({ n: count() })
        .from(auditEvents)
        .where(eq(auditEvents.organizationId, organizationId));
      return { valid: firstBroken === null, events: total?.n ?? 0, firstBroken };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** Every organisation that has a chain (events or an anchor). */
export async function auditedOrganizations(db: Db): Promise<string[]> {
  const withEvents = await db.selectDistinct({ id: auditEvents.organizationId }).from(auditEvents);
  const withAnchor = await db.select({ id: auditAnchors.organizationId }).from(auditAnchors);
  return [...new Set([...withEvents, ...withAnchor].map((row) => row.id))].sort();
}
