/**
 * Documents from the sources (issue 11): the parsed record and its classification, every
 * changed payload as a version, relations between norms, provenance per payload, per-source
 * status, and admins' RSS/Atom feeds. Full-text columns (search_es, search_en) are filled by
 * a trigger and indexed in the custom migration (drizzle/*_documents_search.sql): Spanish and
 * English configurations with unaccent, GIN indexes, and a pg_trgm index on titles.
 */

import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { AreaLabel, CodedLabel, Paragraph, SourceDocument } from "../../documents/types.ts";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const documents = pgTable(
  "documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    source: text("source").notNull(),
    sourceId: text("source_id").notNull(),
    /**
     * The source_feeds row whose fetch brought a feed entry (null for BOE and EUR-Lex): a feed's
     * entries are keyed and reached through it (documents/reach.ts, decision 0080).
     */
    feedId: uuid("feed_id"),
    title: text("title").notNull(),
    language: text("language").notNull(),
    titles: jsonb("titles").$type<{ es?: string; en?: string }>().notNull().default({}),
    publishedOn: text("published_on").notNull(),
    kind: text("kind"),
    rank: text("rank"),
    rankCode: text("rank_code"),
    department: text("department"),
    departmentCode: text("department_code"),
    jurisdiction: text("jurisdiction"),
    areas: jsonb("areas").$type<AreaLabel[]>(),
    /** The areas' ids, kept from `areas` by a trigger (drizzle/*_documents_area_ids.sql): facet counts from an index. */
    areaIds: text("area_ids").array().notNull().default(sql`'{}'::text[]`),
    relevance: text("relevance"),
    classification: jsonb("classification"),
    classifierVersion: text("classifier_version"),
    officialUrl: text("official_url").notNull(),
    effectiveDates: jsonb("effective_dates").$type<string[]>().notNull().default([]),
    sample: boolean("sample").notNull().default(false),
    section: text("section"),
    epigraph: text("epigraph"),
    subjects: jsonb("subjects").$type<CodedLabel[]>().notNull().default([]),
    alerts: jsonb("alerts").$type<CodedLabel[]>().notNull().default([]),
    eurovoc: jsonb("eurovoc").$type<CodedLabel[]>().notNull().default([]),
    paragraphs: jsonb("paragraphs").$type<Paragraph[]>().notNull().default([]),
    /** The whole parsed record (links, notes, relations, provenance...). */
    record: jsonb("record").$type<SourceDocument>().notNull(),
    /** Plain text for indexing (title excluded; bounded). */
    bodyText: text("body_text").notNull().default(""),
    contentHash: text("content_hash").notNull(),
    version: integer("version").notNull().default(1),
    /** Stored or changed, its pipeline not handed over yet (decision 0145): cleared once it is. */
    pipelinePending: text("pipeline_pending").$type<"new" | "changed">(),
    searchEs: tsvector("search_es"),
    searchEn: tsvector("search_en"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // NULLS NOT DISTINCT in the migration (0009): (source, source_id) stays unique for BOE and EUR-Lex.
    uniqueIndex("documents_source_feed_id_uq").on(t.source, t.sourceId, t.feedId),
    index("documents_feed_id_idx").on(t.feedId),
    index("documents_published_idx").on(t.publishedOn, t.id),
    index("documents_jurisdiction_idx").on(t.jurisdiction),
    index("documents_kind_idx").on(t.kind),
    // Facet counts read these indexes alone (index-only scans) instead of the whole table.
    index("documents_source_idx").on(t.source),
    index("documents_relevance_idx").on(t.relevance),
    index("documents_area_ids_idx").on(t.areaIds),
    // The area filter (area_ids @> array[…]) from its GIN index.
    index("documents_area_ids_gin").using("gin", t.areaIds),
  ],
);

export const documentVersions = pgTable(
  "document_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    contentHash: text("content_hash").notNull(),
    record: jsonb("record").$type<SourceDocument>().notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("document_versions_doc_version_uq").on(t.documentId, t.version)],
);

export const documentRelations = pgTable(
  "document_relations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    code: text("code"),
    direction: text("direction").notNull(),
    targetSource: text("target_source").notNull(),
    targetSourceId: text("target_source_id").notNull(),
    /** Linked when the target is stored (now or when it arrives later). */
    targetDocumentId: uuid("target_document_id").references(() => documents.id, { onDelete: "set null" }),
    label: text("label").notNull().default(""),
  },
  (t) => [
    uniqueIndex("document_relations_uq").on(t.documentId, t.type, t.targetSourceId, t.direction),
    index("document_relations_target_idx").on(t.targetSource, t.targetSourceId),
  ],
);

export const documentProvenance = pgTable(
  "document_provenance",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    url: text("url").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
    sha256: text("sha256").notNull(),
    parser: text("parser").notNull(),
  },
  (t) => [index("document_provenance_doc_idx").on(t.documentId)],
);

/** Per source ("boe", "eurlex", "feed:<id>"): last success, last error with its URL, documents today. */
export const sourceStatus = pgTable("source_status", {
  source: text("source").primaryKey(),
  lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
  lastError: text("last_error"),
  lastErrorUrl: text("last_error_url"),
  lastErrorAt: timestamp("last_error_at", { withTimezone: true }),
  /** unreachable, timeout, http, rate_limited, malformed or other (sources/errors.ts). */
  lastErrorKind: text("last_error_kind"),
  /** When the run that recorded the last success started: older errors are past. */
  lastSuccessRunStartedAt: timestamp("last_success_run_started_at", { withTimezone: true }),
  documentsDay: text("documents_day"),
  documentsToday: integer("documents_today").notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Progress of the backfill of missing days at start (INGEST_SINCE), one row per source. */
export const ingestBackfill = pgTable("ingest_backfill", {
  source: text("source").primaryKey(),
  daysTotal: integer("days_total").notNull().default(0),
  daysDone: integer("days_done").notNull().default(0),
  daysFailed: integer("days_failed").notNull().default(0),
  documents: integer("documents").notNull().default(0),
  firstDay: text("first_day"),
  lastDay: text("last_day"),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Fetches done once per day/document across instances (ingest claims). */
export const sourceFetches = pgTable("source_fetches", {
  key: text("key").primaryKey(),
  claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
  doneAt: timestamp("done_at", { withTimezone: true }),
});

/** Politeness across instances: when each source (boe, eurlex, cellar, feed:host) last got a request (sources/pacing.ts). */
export const sourcePacing = pgTable("source_pacing", {
  source: text("source").primaryKey(),
  lastAt: timestamp("last_at", { withTimezone: true }).notNull().defaultNow(),
});

/** RSS/Atom feeds an organisation's admin adds on the Sources page. */
export const sourceFeeds = pgTable(
  "source_feeds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    url: text("url").notNull(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("source_feeds_org_url_uq").on(t.organizationId, t.url)],
);
