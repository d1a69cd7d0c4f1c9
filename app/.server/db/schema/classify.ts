/**
 * Classification over time (issue 12): every change of a document's labels as a row of its
 * history (why: ingested, content changed, reclassified after the tables, rules or model changed),
 * and each organisation's own topics (keyword rules an admin keeps) with the documents they matched,
 * which only that organisation sees.
 */
import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { AreaLabel } from "../../documents/types.ts";
import { documents } from "./documents.ts";

export const documentLabels = pgTable(
  "document_labels",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    /** "ingested" | "changed" (new content) | "reclassified" (new tables, rules or model). */
    cause: text("cause").notNull(),
    classifierVersion: text("classifier_version").notNull(),
    areas: jsonb("areas").$type<AreaLabel[]>().notNull(),
    jurisdiction: text("jurisdiction"),
    kind: text("kind"),
    relevance: text("relevance"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("document_labels_doc_idx").on(t.documentId, t.at)],
);

export const organizationTopics = pgTable(
  "organization_topics",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    name: text("name").notNull(),
    /** Words and phrases, matched stemmed and accent-insensitive in title and text. */
    keywords: jsonb("keywords").$type<string[]>().notNull(),
    /** The taxonomy area the topic belongs to, if any. */
    area: text("area"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("organization_topics_org_idx").on(t.organizationId)],
);

export const documentTopics = pgTable(
  "document_topics",
  {
    organizationId: text("organization_id").notNull(),
    topicId: uuid("topic_id")
      .notNull()
      .references(() => organizationTopics.id, { onDelete: "cascade" }),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    reasons: jsonb("reasons").$type<{ es: string; en: string }[]>().notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.topicId, t.documentId] }),
    index("document_topics_org_doc_idx").on(t.organizationId, t.documentId),
  ],
);
