/**
 * The hash chain: each event's hash is SHA-256 over the previous event's hash and a canonical
 * serialisation of the event's content (keys sorted at every depth, dates as ISO strings).
 * Pure functions shared by recordAudit and verifyAuditChain.
 */
import { createHash } from "node:crypto";
import type { AuditEvent } from "./types.ts";

/** The previous hash of an organisation's first event. */
export const genesisHash = "0".repeat(64);

/** Bumped if the serialisation ever changes; part of every hashed text. */
const chainVersion = 1;

export type HashedContent = Omit<AuditEvent, "seq" | "prevHash" | "hash">;

export function eventHash(prevHash: string, event: HashedContent): string {
  const content = {
    v: chainVersion,
    id: event.id,
    at: event.at.toISOString(),
    organizationId: event.organizationId,
    actor: event.actor ? { id: event.actor.id, email: event.actor.email } : null,
    action: event.action,
    object: event.object ? { type: event.object.type, id: event.object.id } : null,
    ipHash: event.ipHash,
    userAgent: event.userAgent,
    detail: event.detail,
  };
  return createHash("sha256").update(prevHash).update("\n").update(canonicalJson(content)).digest("hex");
}

/** JSON with object keys sorted at every depth, so jsonb's own key order does not matter. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) out[key] = sortKeys(item);
    }
    return out;
  }
  return value;
}
