/**
 * Alerts: profiles (what a user or a group wants to hear about), matches (one per document and
 * profile), the durable deliveries outbox (one row per channel and recipient, stored before any
 * attempt), the in-app alerts, and API webhook subscriptions. Ids of users, groups, organisations
 * and documents are other capabilities' ids, kept as plain columns (foreign keys come at merge).
 */
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const alertProfiles = pgTable(
  "alert_profiles",
  {
    id: uuid("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    /** Exactly one of userId / groupId is set. */
    userId: text("user_id"),
    groupId: text("group_id"),
    name: text("name").notNull(),
    /** Empty array = any. */
    areas: text("areas").array().notNull().default(sql`'{}'::text[]`),
    jurisdictions: text("jurisdictions").array().notNull().default(sql`'{}'::text[]`),
    kinds: text("kinds").array().notNull().default(sql`'{}'::text[]`),
    sources: text("sources").array().notNull().default(sql`'{}'::text[]`),
    /** 0 any, 1 low, 2 medium, 3 high: a document matches when its rank is at least this. */
    minRelevance: smallint("min_relevance").notNull().default(0),
    keywords: text("keywords").array().notNull().default(sql`'{}'::text[]`),
    /** A saved search query (every word must appear, accent-insensitive). */
    query: text("query"),
    emailMode: text("email_mode").notNull().default("off"),
    digestHour: smallint("digest_hour").notNull().default(8),
    timeZone: text("time_zone").notNull().default("Europe/Madrid"),
    chatWebhookUrl: text("chat_webhook_url"),
    language: text("language").notNull().default("es"),
    muted: boolean("muted").notNull().default(false),
    /** A follow (issue 25): the followed law (null = an ordinary document profile) and its blocks (empty = the whole law). */
    lawId: text("law_id"),
    lawBlocks: text("law_blocks").array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("alert_profiles_org_idx").on(table.organizationId),
    index("alert_profiles_user_idx").on(table.userId),
    index("alert_profiles_group_idx").on(table.groupId),
  ],
);

export const alertMatches = pgTable(
  "alert_matches",
  {
    id: uuid("id").primaryKey(),
    documentId: uuid("document_id").notNull(),
    profileId: uuid("profile_id")
      .notNull()
      .references(() => alertProfiles.id, { onDelete: "cascade" }),
    reasons: jsonb("reasons").notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** A law change's match whose deliveries are still to be written (laws/matching.ts fanOutLawMatches). */
    fanoutPending: boolean("fanout_pending").notNull().default(false),
  },
  (table) => [
    uniqueIndex("alert_matches_document_profile_uq").on(table.documentId, table.profileId),
    index("alert_matches_profile_idx").on(table.profileId),
    index("alert_matches_fanout_idx").on(table.createdAt).where(sql`${table.fanoutPending}`),
  ],
);

/**
 * One row per message to send. channel: inapp | email | chat | webhook. recipient: a user id,
 * a chat URL or a webhook id. matchKey: the match id, or "webhook:<documentId>" for subscriptions.
 * status: pending → sending → sent, or dead after the limit (webhooks and mail: after their retry
 * window, giveUpAt when set); held: a webhook's delivery kept while its webhook is disabled or failing,
 * queued again (same id) when an admin resumes it.
 */
export const deliveries = pgTable(
  "deliveries",
  {
    id: uuid("id").primaryKey(),
    matchKey: text("match_key").notNull(),
    channel: text("channel").notNull(),
    recipient: text("recipient").notNull(),
    organizationId: text("organization_id"),
    payload: jsonb("payload").notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    giveUpAt: timestamp("give_up_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("deliveries_match_channel_recipient_uq").on(table.matchKey, table.channel, table.recipient),
    index("deliveries_due_idx").on(table.status, table.nextAttemptAt),
    // A webhook's recent deliveries (the admin page) and its held ones (resume).
    index("deliveries_webhook_idx").on(table.recipient, table.createdAt).where(sql`channel = 'webhook'`),
  ],
);

/** The notification centre: one row per user, document and profile. The serial id is the SSE event id. */
export const alerts = pgTable(
  "alerts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: text("user_id").notNull(),
    documentId: uuid("document_id").notNull(),
    profileId: uuid("profile_id").notNull(),
    title: text("title").notNull(),
    /** Why it matched (alerts/why.ts, decision 0148); null for alerts stored before. */
    why: jsonb("why"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("alerts_user_document_profile_uq").on(table.userId, table.documentId, table.profileId),
    index("alerts_user_id_idx").on(table.userId, table.id),
    index("alerts_user_document_idx").on(table.userId, table.documentId),
  ],
);

/** API webhook subscriptions (POST /api/v1/webhooks). */
export const webhooks = pgTable(
  "webhooks",
  {
    id: uuid("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    url: text("url").notNull(),
    areas: text("areas").array().notNull().default(sql`'{}'::text[]`),
    jurisdictions: text("jurisdictions").array().notNull().default(sql`'{}'::text[]`),
    kinds: text("kinds").array().notNull().default(sql`'{}'::text[]`),
    sources: text("sources").array().notNull().default(sql`'{}'::text[]`),
    minRelevance: smallint("min_relevance").notNull().default(0),
    query: text("query"),
    /** The event types it receives (channels/webhook/events.ts); document.matched by default. */
    events: text("events").array().notNull().default(sql`'{document.matched}'::text[]`),
    secret: text("secret").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Disabled by an admin: no new events are queued for it; queued ones are held until it is enabled. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** A delivery ran out of its retry window: its deliveries are held until an admin resumes it. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    /** The last error of the delivery that made it failing. */
    failingError: text("failing_error"),
  },
  (table) => [index("webhooks_org_idx").on(table.organizationId)],
);
