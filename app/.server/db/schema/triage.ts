/**
 * Triage and obligations (issue 26): per organisation and document a status, an assignee (a
 * member or a group), a due date, an impact and a rationale, with every change kept as history;
 * obligations anchored to a paragraph of the document's text or (issue 39, decision 0146) to an
 * article of a followed law at one of its versions, with the reviews a new version of that article
 * opens; the users' reminder settings and
 * the reminders already sent (once per item, user and due date). Users, groups and organisations
 * are the auth capability's ids, kept as plain columns like the other capabilities do.
 */
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { documents } from "./documents.ts";

export const triageStatuses = ["new", "under_review", "applies", "does_not_apply", "in_progress", "done"] as const;
export type TriageStatus = (typeof triageStatuses)[number];
export const triageImpacts = ["high", "medium", "low"] as const;
export type TriageImpact = (typeof triageImpacts)[number];
export const dueSources = ["entry_into_force", "application", "manual"] as const;
export type DueSource = (typeof dueSources)[number];
export const obligationStatuses = ["open", "in_progress", "done", "not_applicable"] as const;
export type ObligationStatus = (typeof obligationStatuses)[number];
/** Where an obligation is anchored: a paragraph of a gazette document, or an article (block) of a followed law. */
export const obligationAnchorKinds = ["paragraph", "article"] as const;
export type ObligationAnchorKind = (typeof obligationAnchorKinds)[number];
/** A reviewer's decision after the anchored article changed. */
export const reviewDecisions = ["still_applies", "changed", "no_longer_applies"] as const;
export type ReviewDecision = (typeof reviewDecisions)[number];

/** One change: `{ field: { from, to } }`. */
export type ChangeSet = Record<string, { from: unknown; to: unknown }>;

export const triageItems = pgTable(
  "triage_items",
  {
    organizationId: text("organization_id").notNull(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    status: text("status").$type<TriageStatus>().notNull().default("new"),
    assigneeUserId: text("assignee_user_id"),
    /** A group: a better-auth team (auth_team). */
    assigneeTeamId: text("assignee_team_id"),
    /** YYYY-MM-DD */
    dueOn: date("due_on", { mode: "string" }),
    dueSource: text("due_source").$type<DueSource>(),
    impact: text("impact").$type<TriageImpact>(),
    rationale: text("rationale").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** The user who made the last change ("system" when an alert brought the document in). */
    updatedBy: text("updated_by"),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.documentId] }),
    index("triage_items_org_status_idx").on(t.organizationId, t.status),
    index("triage_items_assignee_user_idx").on(t.assigneeUserId),
    index("triage_items_assignee_team_idx").on(t.assigneeTeamId),
    index("triage_items_due_idx").on(t.dueOn),
    check(
      "triage_items_status_check",
      sql`${t.status} in ('new', 'under_review', 'applies', 'does_not_apply', 'in_progress', 'done')`,
    ),
    check("triage_items_impact_check", sql`${t.impact} is null or ${t.impact} in ('high', 'medium', 'low')`),
    check(
      "triage_items_due_source_check",
      sql`${t.dueSource} is null or ${t.dueSource} in ('entry_into_force', 'application', 'manual')`,
    ),
  ],
);

export const triageHistory = pgTable(
  "triage_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: text("organization_id").notNull(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    actorUserId: text("actor_user_id").notNull(),
    actorName: text("actor_name").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    changes: jsonb("changes").$type<ChangeSet>().notNull(),
    note: text("note"),
  },
  (t) => [index("triage_history_org_doc_at_idx").on(t.organizationId, t.documentId, t.at)],
);

export const obligations = pgTable(
  "obligations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    anchorKind: text("anchor_kind").$type<ObligationAnchorKind>().notNull().default("paragraph"),
    /** A paragraph anchor's document (null for an article anchor). */
    documentId: uuid("document_id").references(() => documents.id, { onDelete: "cascade" }),
    /** The paragraph's anchor in the document page's text ("p-3"), or the article's block id ("a13"). */
    anchor: text("anchor").notNull(),
    /**
     * The anchored text when the obligation was recorded or last reviewed: the paragraph's, or the
     * article's wording at the anchored version (kept: a correction in place changes the version row).
     */
    excerpt: text("excerpt").notNull(),
    /** An article anchor: the followed law, its block, and the version (law_block_versions.id) anchored. */
    lawId: text("law_id"),
    blockId: text("block_id"),
    lawVersionId: uuid("law_version_id"),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    ownerUserId: text("owner_user_id"),
    ownerTeamId: text("owner_team_id"),
    dueOn: date("due_on", { mode: "string" }),
    status: text("status").$type<ObligationStatus>().notNull().default("open"),
    /** The internal policy or control it touches (free text). */
    reference: text("reference").notNull().default(""),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("obligations_org_status_due_idx").on(t.organizationId, t.status, t.dueOn),
    index("obligations_org_document_idx").on(t.organizationId, t.documentId),
    index("obligations_owner_user_idx").on(t.ownerUserId),
    index("obligations_owner_team_idx").on(t.ownerTeamId),
    check("obligations_status_check", sql`${t.status} in ('open', 'in_progress', 'done', 'not_applicable')`),
    index("obligations_law_block_idx").on(t.lawId, t.blockId),
    check(
      "obligations_anchor_check",
      sql`(${t.anchorKind} = 'paragraph' and ${t.documentId} is not null and ${t.lawId} is null) or (${t.anchorKind} = 'article' and ${t.documentId} is null and ${t.lawId} is not null and ${t.blockId} is not null and ${t.lawVersionId} is not null)`,
    ),
  ],
);

/**
 * A review an article's new consolidated version opened on an obligation anchored there (opened in
 * the transaction that wrote the version, law-texts/store.ts → triage/law-anchors.ts). At most one
 * open review (decision null) per obligation: a later version before the decision moves its `to`.
 * The decision re-anchors the obligation to `to` and is kept here with who and when.
 */
export const obligationReviews = pgTable(
  "obligation_reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    obligationId: uuid("obligation_id")
      .notNull()
      .references(() => obligations.id, { onDelete: "cascade" }),
    lawId: text("law_id").notNull(),
    blockId: text("block_id").notNull(),
    /** The anchored version and its wording then; the new version (its wording is read from law_block_versions). */
    fromVersionId: uuid("from_version_id").notNull(),
    fromText: text("from_text").notNull(),
    toVersionId: uuid("to_version_id").notNull(),
    /** The new wording as the review saw it (a correction in place may change the version row later). */
    toText: text("to_text").notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    decision: text("decision").$type<ReviewDecision>(),
    note: text("note"),
    /** "changed": the obligation's new wording (its description), when the reviewer gave one. */
    newText: text("new_text"),
    decidedBy: text("decided_by"),
    decidedByName: text("decided_by_name"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (t) => [
    index("obligation_reviews_org_obligation_idx").on(t.organizationId, t.obligationId, t.openedAt),
    uniqueIndex("obligation_reviews_open_uq").on(t.obligationId).where(sql`${t.decision} is null`),
    check(
      "obligation_reviews_decision_check",
      sql`${t.decision} is null or ${t.decision} in ('still_applies', 'changed', 'no_longer_applies')`,
    ),
  ],
);

export const obligationHistory = pgTable(
  "obligation_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: text("organization_id").notNull(),
    obligationId: uuid("obligation_id")
      .notNull()
      .references(() => obligations.id, { onDelete: "cascade" }),
    actorUserId: text("actor_user_id").notNull(),
    actorName: text("actor_name").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    changes: jsonb("changes").$type<ChangeSet>().notNull(),
    note: text("note"),
  },
  (t) => [index("obligation_history_org_obligation_at_idx").on(t.organizationId, t.obligationId, t.at)],
);

export const reminderSettings = pgTable(
  "reminder_settings",
  {
    userId: text("user_id").primaryKey(),
    /** Hour of the day in Europe/Madrid (0-23). */
    hour: smallint("hour").notNull().default(9),
    daysBefore: smallint("days_before").notNull().default(3),
    mail: boolean("mail").notNull().default(true),
  },
  (t) => [
    check("reminder_settings_hour_check", sql`${t.hour} between 0 and 23`),
    check("reminder_settings_days_check", sql`${t.daysBefore} between 0 and 60`),
  ],
);

export const remindersSent = pgTable(
  "reminders_sent",
  {
    kind: text("kind").$type<"triage" | "obligation">().notNull(),
    /** triage: "{organizationId}/{documentId}"; obligation: its id. */
    itemKey: text("item_key").notNull(),
    userId: text("user_id").notNull(),
    dueOn: date("due_on", { mode: "string" }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.itemKey, t.userId, t.dueOn] }),
    check("reminders_sent_kind_check", sql`${t.kind} in ('triage', 'obligation')`),
  ],
);
