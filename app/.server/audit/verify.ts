/**
 * Recomputes an organisation's chain from its anchor (or the genesis hash) and names the first
 * event whose position, previous hash or own hash does not match: the row that was changed,
 * or the one after a deleted row. The anchor must carry this server's signature and be older
 * than the retention cut-off, and the newest event must be the signed head (decision 0084):
 * deleted newest events and forged purges are reported with a reason. Reads in batches inside one repeatable-read snapshot, so
 * events written meanwhile or a purge running at the same time cannot make a sound chain look
 * broken.
 */
import { and, asc, count as count_, eq, gt } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { auditAnchors, auditEvents, auditHeads } from "../db/schema/audit.ts";
import { eventHash, genesisHash } from "./chain.ts";
import { signAnchor, signatureMatches, signHead } from "./head.ts";
import { rowToEvent } from "./record.ts";

export interface ChainVerification {
  valid: boolean;
  /** Events of the organisation now kept (after retention). */
  events: number;
  /** Id of the first event that does not chain, or null when the chain is whole. */
  firstBroken: string | null;
  /** Why the chain is not valid (English, for operators and the API); null when valid. */
  reason: string | null;
}

let retentionDays: number | undefined;

/**
 * Set once at start (AUDIT_RETENTION_DAYS): an anchor newer than the cut-off is refused.
 * Undefined (a process where no server started) checks no cut-off unless a caller passes one.
 */
export function setAuditRetentionDays(days: number | undefined): void {
  retentionDays = days;
}

export async function verifyAuditChain(
  db: Db,
  organizationId: string,
  options: { batchSize?: number; retentionDays?: number; now?: Date } = {},
): Promise<ChainVerification> {
  const batchSize = options.batchSize ?? 1000;
  const days = options.retentionDays ?? retentionDays;
  return db.transaction(
    async (tx) => {
      const [anchor] = await tx.select().from(auditAnchors).where(eq(auditAnchors.organizationId, organizationId));
      const [head] = await tx.select().from(auditHeads).where(eq(auditHeads.organizationId, organizationId));
      const count = async () =>
        (await tx.select({ n: count_() }).from(auditEvents).where(eq(auditEvents.organizationId, organizationId)))[0]
          ?.n ?? 0;
      const broken = async (reason: string, firstBroken: string | null = null): Promise<ChainVerification> => ({
        valid: false,
        events: await count(),
        firstBroken,
        reason,
      });
      if (anchor) {
        if (!signatureMatches(anchor.signature, signAnchor(organizationId, anchor.seq, anchor.hash, anchor.at)))
          return broken(`the purge anchor (seq ${anchor.seq}) is not signed by this server: a forged purge`);
        const cutoff = (options.now ?? new Date()).getTime() - (days ?? 0) * 86_400_000;
        if (days !== undefined && anchor.at.getTime() >= cutoff)
          return broken(`the purge anchor (seq ${anchor.seq}) is newer than the retention cut-off (${days} days)`);
      }
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
      if (firstBroken !== null) return broken("an event does not chain (changed, inserted or deleted)", firstBroken);
      // The newest event seen (or the anchor when every event was purged) must be the signed head.
      const newest = { seq: expectedSeq - 1, hash: prevHash };
      if (!head) {
        return newest.seq === 0
          ? { valid: true, events: 0, firstBroken: null, reason: null }
          : broken("no signed head");
      }
      if (!signatureMatches(head.signature, signHead(organizationId, head.seq, head.hash)))
        return broken(`the head (seq ${head.seq}) is not signed by this server`);
      if (newest.seq < head.seq)
        return broken(
          `the newest events are missing: the chain ends at seq ${newest.seq}, its signed head is seq ${head.seq}`,
        );
      if (newest.seq > head.seq) return broken(`events after the signed head (seq ${head.seq})`);
      if (newest.hash !== head.hash) return broken(`the newest event (seq ${head.seq}) is not the signed head`);
      return { valid: true, events: await count(), firstBroken: null, reason: null };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** Every organisation that has a chain (events or an anchor). */
export async function auditedOrganizations(db: Db): Promise<string[]> {
  const withEvents = await db.selectDistinct({ id: auditEvents.organizationId }).from(auditEvents);
  const withAnchor = await db.select({ id: auditAnchors.organizationId }).from(auditAnchors);
  const withHead = await db.select({ id: auditHeads.organizationId }).from(auditHeads);
  return [...new Set([...withEvents, ...withAnchor, ...withHead].map((row) => row.id))].sort();
}
