/**
 * Followed laws (issue 25): consolidated texts block by block with every version and its
 * provenance, the early warnings (a daily act announces a change before the consolidated text
 * catches up) and the law changes matched against follows. A follow is an alert profile with a
 * law scope: alert_profiles.law_id (+ law_blocks), see alerts.ts.
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const laws = pgTable("laws", {
  /** BOE-A-… or the CELEX number. */
  id: text("id").primaryKey(),
  source: text("source").notNull(),
  title: text("title").notNull(),
  eli: text("eli"),
  metadata: jsonb("metadata").notNull().default(sql`'{}'::jsonb`),
  /** The source's date of last update (BOE fecha_actualizacion). */
  updatedAt: timestamp("updated_at", { withTimezone: true }),
  /** Last time the index was checked, and its payload's hash (an unchanged index is not parsed again). */
  checkedAt: timestamp("checked_at", { withTimezone: true }),
  indexHash: text("index_hash"),
  /** Followed laws are polled; the first follow (or an ingested document) adds the row. */
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const lawBlocks = pgTable(
  "law_blocks",
  {
    lawId: text("law_id")
      .notNull()
      .references(() => laws.id, { onDelete: "cascade" }),
    blockId: text("block_id").notNull(),
    kind: text("kind").notNull(),
    title: text("title").notNull().default(""),
    position: integer("position").notNull(),
    latestDate: date("latest_date", { mode: "string" }).notNull(),
    expiresOn: date("expires_on", { mode: "string" }),
    /** Hash of the block's last answer: a block fetched again with the same payload changes nothing. */
    payloadHash: text("payload_hash"),
  },
  (t) => [primaryKey({ columns: [t.lawId, t.blockId] }), index("law_blocks_law_position_idx").on(t.lawId, t.position)],
);

export const lawBlockVersions = pgTable(
  "law_block_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lawId: text("law_id").notNull(),
    blockId: text("block_id").notNull(),
    normId: text("norm_id").notNull(),
    publishedOn: date("published_on", { mode: "string" }).notNull(),
    inForceOn: date("in_force_on", { mode: "string" }),
    html: text("html").notNull(),
    text: text("text").notNull(),
    hash: text("hash").notNull(),
    /** Provenance: the URL it was read from, when, and the sha256 of that answer. */
    sourceUrl: text("source_url").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
    payloadHash: text("payload_hash").notNull(),
    /** Set when the wording was corrected in place (same norm and dates, new text). */
    correctedAt: timestamp("corrected_at", { withTimezone: true }),
    /**
     * Written by a poll and not yet recorded as a law change ('added' or 'corrected'): set in the
     * transaction that writes the version, cleared in the one that records the change (migration
     * 0029, decision 0162). A law's first fetch reports nothing and leaves it null.
     */
    unreported: text("unreported"),
  },
  (t) => [
    uniqueIndex("law_block_versions_uq").on(t.lawId, t.blockId, t.normId, t.publishedOn),
    index("law_block_versions_norm_idx").on(t.normId),
    index("law_block_versions_unreported_idx").on(t.lawId).where(sql`${t.unreported} is not null`),
  ],
);

/**
 * A daily act announces a change to a law (its relations: MODIFICA, DEROGA, AÑADE…): the law shows
 * "change published, consolidation pending" until consolidatedAt is set.
 */
export const lawAnnouncements = pgTable(
  "law_announcements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lawId: text("law_id").notNull(),
    /** The announcing act: its stored document and its BOE id. */
    documentId: uuid("document_id"),
    actId: text("act_id").notNull(),
    relationCode: text("relation_code"),
    relation: text("relation").notNull().default(""),
    relationText: text("relation_text").notNull().default(""),
    /** Articles named in the relation text, as block ids of the law where they resolve (a23, daprimera…). */
    articles: text("articles").array().notNull().default(sql`'{}'::text[]`),
    publishedOn: date("published_on", { mode: "string" }).notNull(),
    consolidatedAt: timestamp("consolidated_at", { withTimezone: true }),
    /** The law change (law_changes.id) alerted the day the act was published. */
    firstAlertId: uuid("first_alert_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("law_announcements_law_act_uq").on(t.lawId, t.actId),
    index("law_announcements_pending_idx").on(t.lawId, t.consolidatedAt),
  ],
);

/**
 * A change of a followed law, the unit matched against follows: `announced` (the day the act is
 * published, from law_announcements) or `consolidated` (new block versions or in-place corrections).
 * Its id is the alert's document id (alert_matches.document_id, alerts.document_id).
 */
export const lawChanges = pgTable(
  "law_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lawId: text("law_id").notNull(),
    kind: text("kind").notNull(),
    /** The amending norm (BOE-A-…), when one. */
    normId: text("norm_id"),
    publishedOn: date("published_on", { mode: "string" }),
    /** Block ids changed (consolidated) or named (announced; empty = not named). */
    blockIds: text("block_ids").array().notNull().default(sql`'{}'::text[]`),
    /** The earlier warning this change follows up. */
    announcementId: uuid("announcement_id"),
    previousChangeId: uuid("previous_change_id"),
    details: jsonb("details").notNull().default(sql`'{}'::jsonb`),
    /** A consolidated change recorded, its follows not yet matched (cleared with the matches' transaction). */
    matchPending: boolean("match_pending").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("law_changes_law_idx").on(t.lawId, t.createdAt),
    index("law_changes_match_pending_idx").on(t.createdAt).where(sql`${t.matchPending}`),
  ],
);

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * The catalogue of laws to follow (issue 39, migration 0023): every consolidated BOE law and EU
 * act with consolidated versions, public data kept current by the law-catalogue source. Its
 * search columns (search_es, search_en, keys) are written by a trigger.
 */
export const lawCatalogue = pgTable("law_catalogue", {
  /** BOE-A-… or the act's CELEX number. */
  id: text("id").primaryKey(),
  source: text("source").notNull(),
  /** The official title in the source's language. */
  title: text("title").notNull(),
  /** Titles by language where the source gives them ({ es, en }). */
  titles: jsonb("titles").$type<{ es?: string; en?: string }>().notNull().default(sql`'{}'::jsonb`),
  /** The official number ("38/2003", "2016/679"). */
  number: text("number"),
  /** The rank ("Ley", "Real Decreto", "Regulation"). */
  rank: text("rank"),
  /** Common names: { es: [...], en: [...], acronyms: [...] } (fixtures/reference/laws/common-names.json). */
  aliases: jsonb("aliases")
    .$type<{ es?: string[]; en?: string[]; acronyms?: string[] }>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  datedOn: date("dated_on", { mode: "string" }),
  inForce: boolean("in_force").notNull().default(true),
  eli: text("eli"),
  sourceUpdatedAt: timestamp("source_updated_at", { withTimezone: true }),
  seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
  keys: text("keys").notNull().default(""),
  searchEs: tsvector("search_es"),
  searchEn: tsvector("search_en"),
});
