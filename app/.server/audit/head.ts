/**
 * Decision 0084: the chain's head and purge anchors signed with a key derived from AUTH_SECRET.
 * The application's database role can delete rows and switch triggers off, but without the
 * secret it cannot sign a shorter head or a later anchor, so truncating the newest events or
 * forging a purge shows at verification.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { auditAnchors, auditHeads } from "../db/schema/audit.ts";
import { currentAuditSecret } from "./ip-hash.ts";

function key(secret: string): Buffer {
  return createHmac("sha256", secret).update("audit-head\u0000v1").digest();
}

function mac(secret: string, ...parts: string[]): string {
  return createHmac("sha256", key(secret)).update(parts.join("\u0000")).digest("hex");
}

export function signHead(organizationId: string, seq: number, hash: string, secret = currentAuditSecret()): string {
  return mac(secret, "head", organizationId, String(seq), hash);
}

export function signAnchor(
  organizationId: string,
  seq: number,
  hash: string,
  at: Date,
  secret = currentAuditSecret(),
): string {
  return mac(secret, "anchor", organizationId, String(seq), hash, at.toISOString());
}

/** Constant-time comparison of a stored signature with the expected one. */
export function signatureMatches(stored: string | null, expected: string): boolean {
  if (!stored || stored.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(stored), Buffer.from(expected));
}

/** The migration that adds signed heads; its tag in app_migrations. */
export const auditHeadsMigration = "0010_audit_heads";

/**
 * Signs the heads and anchors that migration 0010 found unsigned (chains written before signed
 * heads existed). Only the start that applied the migration calls it: later, an unsigned row
 * means someone rewrote it, and verification says so.
 */
export async function signUnsignedAuditRows(db: Db): Promise<number> {
  let signed = 0;
  for (const head of await db.select().from(auditHeads).where(isNull(auditHeads.signature))) {
    await db
      .update(auditHeads)
      .set({ signature: signHead(head.organizationId, head.seq, head.hash) })
      .where(eq(auditHeads.organizationId, head.organizationId));
    signed++;
  }
  for (const anchor of await db.select().from(auditAnchors).where(isNull(auditAnchors.signature))) {
    await db
      .update(auditAnchors)
      .set({ signature: signAnchor(anchor.organizationId, anchor.seq, anchor.hash, anchor.at) })
      .where(eq(auditAnchors.organizationId, anchor.organizationId));
    signed++;
  }
  return signed;
}
