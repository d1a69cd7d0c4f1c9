/** Notes on documents and read receipts. User, group, organisation and document ids are other capabilities' (no foreign keys until merge). */
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const notes = pgTable(
  "notes",
  {
    id: uuid("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    authorId: text("author_id").notNull(),
    documentId: uuid("document_id").notNull(),
    /** private | group | organization */
    visibility: text("visibility").notNull(),
    groupId: text("group_id"),
    /** Index of the anchored paragraph in the document's text, if any. */
    paragraph: integer("paragraph"),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("notes_org_document_idx").on(table.organizationId, table.documentId)],
);

export const documentReads = pgTable(
  "document_reads",
  {
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").notNull(),
    documentId: uuid("document_id").notNull(),
    firstReadAt: timestamp("first_read_at", { withTimezone: true }).notNull().defaultNow(),
    lastReadAt: timestamp("last_read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("document_reads_user_document_uq").on(table.userId, table.documentId),
    index("document_reads_org_document_idx").on(table.organizationId, table.documentId),
  ],
);
