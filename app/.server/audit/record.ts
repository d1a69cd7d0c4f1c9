/**
 * Appends one event to its organisation's hash chain, inside the caller's transaction, so the
 * change and its event commit together or not at all. Writers of one organisation are
 * serialised by a transaction-scoped advisory lock (pg_advisory_xact_lock): two concurrent
 * transactions can never both chain onto the same head. The lock is held until the caller's
 * transaction ends, so record the event as the last statement of a transaction.
 */
import { randomUUID } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { auditAnchors, auditEvents, auditHeads } from "../db/schema/audit.ts";
import { eventHash, genesisHash } from "./chain.ts";
import { auditLockClass, type Executor } from "./executor.ts";
import { signatureMatches, signHead } from "./head.ts";
import { hashIp } from "./ip-hash.ts";
import type { AuditEvent, AuditEventInput } from "./types.ts";

/** `noun.verb`, lower case, underscores inside words: auth.sign_in_failed, alert_profile.created. */
export const auditActionPattern = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

const maxUserAgent = 512;
const maxDetailBytes = 16_384;

export interface RecordOptions {
  /** Key material for the IP hash; the secret set at start (setAuditSecret) by default. */
  secret?: string | undefined;
  /** Key material for the signed head; the secret set at start by default (tests only). */
  headSecret?: string | undefined;
}

export async function recordAudit(
  tx: Executor,
  input: AuditEventInput,
  options: RecordOptions = {},
): Promise<AuditEvent> {
  if (!input.organizationId) throw new TypeError("recordAudit: organizationId is required");
  if (!auditActionPattern.test(input.action)) {
    throw new TypeError(`recordAudit: action "${input.action}" is not noun.verb`);
  }
  const detail = input.detail && Object.keys(input.detail).length > 0 ? input.detail : null;
  if (detail && Buffer.byteLength(JSON.stringify(detail)) > maxDetailBytes) {
    throw new RangeError(`recordAudit: detail over ${maxDetailBytes} bytes`);
  }
  const organizationId = input.organizationId;
  // A savepoint inside the caller's transaction, or a transaction of its own when given the Db:
  // either way the advisory lock below lasts until the outermost transaction ends.
  return tx.transaction(async (inner) => {
    await inner.execute(
      sql`select pg_advisory_xact_lock(${sql.raw(String(auditLockClass))}, hashtext(${organizationId}))`,
    );
    // The signed head is where the chain continues: if the newest events were deleted, the next
    // event still follows the head, and the gap shows at verification (decision 0084).
    const [signed] = await inner.select().from(auditHeads).where(eq(auditHeads.organizationId, organizationId));
    const trusted =
      signed &&
      signatureMatches(signed.signature, signHead(organizationId, signed.seq, signed.hash, options.headSecret));
    let previous: { seq: number; hash: string } | undefined = trusted ? signed : undefined;
    let writeHead = true;
    if (!previous) {
      const [last] = await inner
        .select({ seq: auditEvents.seq, hash: auditEvents.hash })
        .from(auditEvents)
        .where(eq(auditEvents.organizationId, organizationId))
        .orderBy(desc(auditEvents.seq))
        .limit(1);
      const [anchor] = await inner
        .select({ seq: auditAnchors.seq, hash: auditAnchors.hash })
        .from(auditAnchors)
        .where(eq(auditAnchors.organizationId, organizationId));
      previous = last ?? anchor ?? { seq: 0, hash: genesisHash };
      // A chain without its head, or with a head this secret did not sign, was tampered with:
      // the event is recorded, and the head is left for verification to report.
      writeHead = !signed && !last && !anchor;
    }
    const content = {
      id: randomUUID(),
      organizationId,
      at: input.at ?? new Date(),
      // Normalised exactly as rowToEvent reads them back, so what is hashed is what is stored.
      actor: input.actor ? { id: String(input.actor.id), email: String(input.actor.email ?? "") } : null,
      action: input.action,
      object: input.object ? { type: String(input.object.type), id: String(input.object.id ?? "") } : null,
      ipHash: input.ip ? hashIp(organizationId, input.ip, options.secret) : null,
      userAgent: input.userAgent ? input.userAgent.slice(0, maxUserAgent) : null,
      detail,
    };
    const event: AuditEvent = {
      ...content,
      seq: previous.seq + 1,
      prevHash: previous.hash,
      hash: eventHash(previous.hash, content),
    };
    await inner.insert(auditEvents).values({
      id: event.id,
      organizationId,
      seq: event.seq,
      at: event.at,
      actorId: event.actor?.id ?? null,
      actorEmail: event.actor?.email ?? null,
      action: event.action,
      objectType: event.object?.type ?? null,
      objectId: event.object?.id ?? null,
      ipHash: event.ipHash,
      userAgent: event.userAgent,
      detail: event.detail,
      prevHash: event.prevHash,
      hash: event.hash,
    });
    if (writeHead) {
      const head = {
        seq: event.seq,
        hash: event.hash,
        signature: signHead(organizationId, event.seq, event.hash, options.headSecret),
        updatedAt: new Date(),
      };
      await inner
        .insert(auditHeads)
        .values({ organizationId, ...head })
        .onConflictDoUpdate({ target: auditHeads.organizationId, set: head });
    }
    return event;
  });
}

/** A stored row as an AuditEvent. */
export function rowToEvent(row: typeof auditEvents.$inferSelect): AuditEvent {
  return {
    id: row.id,
    organizationId: row.organizationId,
    seq: row.seq,
    at: row.at,
    actor: row.actorId !== null ? { id: row.actorId, email: row.actorEmail ?? "" } : null,
    action: row.action,
    object: row.objectType !== null ? { type: row.objectType, id: row.objectId ?? "" } : null,
    ipHash: row.ipHash,
    userAgent: row.userAgent,
    detail: row.detail ?? null,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}
