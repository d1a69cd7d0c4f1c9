/**
 * The audit trail (platform spec section 8): one append-only table, one hash chain per
 * organisation (seq 1, 2, 3 … each hashing its content with the previous event's hash), and
 * one anchor row per organisation holding the last purged event so the chain stays verifiable
 * after retention. The triggers refusing UPDATE and DELETE live in a custom migration.
 * Organisation and user ids are better-auth's text ids; no foreign keys, so the trail
 * outlives the rows it names.
 */
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    /** Position in the organisation's chain, from 1 (or the anchor's seq + 1 after a purge). */
    seq: bigint("seq", { mode: "number" }).notNull(),
    at: timestamp("at", { withTimezone: true, precision: 3 }).notNull(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    objectType: text("object_type"),
    objectId: text("object_id"),
    /** HMAC-SHA256 of the client IP under the organisation's key; never the address. */
    ipHash: text("ip_hash"),
    userAgent: text("user_agent"),
    detail: jsonb("detail").$type<Record<string, unknown>>(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (table) => [
    uniqueIndex("audit_events_org_seq_idx").on(table.organizationId, table.seq),
    index("audit_events_org_at_idx").on(table.organizationId, table.at),
    index("audit_events_org_action_idx").on(table.organizationId, table.action),
    index("audit_events_org_actor_idx").on(table.organizationId, table.actorId),
    index("audit_events_org_object_idx").on(table.organizationId, table.objectType, table.objectId),
    index("audit_events_at_idx").on(table.at),
  ],
);

/** Where an organisation's kept chain starts once older events are purged. */
export const auditAnchors = pgTable("audit_anchors", {
  organizationId: text("organization_id").primaryKey(),
  /** seq and hash of the last purged event: the next kept event has seq + 1 and this prevHash. */
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
  /** Time of the last purged event. */
  at: timestamp("at", { withTimezone: true, precision: 3 }).notNull(),
  purgedAt: timestamp("purged_at", { withTimezone: true }).notNull().defaultNow(),
  /** Events purged so far, all purges together. */
  purgedEvents: bigint("purged_events", { mode: "number" }).notNull().default(0),
  /** HMAC of (organisation, seq, hash, at) under the AUTH_SECRET-derived key (decision 0084). */
  signature: text("signature"),
});

/**
 * Each organisation's newest event (seq and hash), signed with a key derived from AUTH_SECRET
 * (decision 0084): the database role can delete the newest events but cannot sign a shorter head.
 * Written in the same transaction as every event; null signature only between the migration and
 * the start that signs it.
 */
export const auditHeads = pgTable("audit_heads", {
  organizationId: text("organization_id").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
  signature: text("signature"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
