/**
 * Saved searches (issue 39): a member names the search page's query and filters to run them again
 * in one click. Per member within the organisation; the filters are the search page's URL
 * parameters (documentQuerySchema), kept as JSON so that a new filter needs no migration.
 */
import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const savedSearches = pgTable(
  "saved_searches",
  {
    id: uuid("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").notNull(),
    name: text("name").notNull(),
    /** { q?, source?, area?, jurisdiction?, kind?, relevance?, from?, to?, sort? }: strings only. */
    filters: jsonb("filters").notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("saved_searches_org_user_idx").on(table.organizationId, table.userId),
    uniqueIndex("saved_searches_org_user_name_uq").on(table.organizationId, table.userId, table.name),
  ],
);
