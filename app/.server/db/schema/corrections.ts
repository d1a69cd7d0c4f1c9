/**
 * Corrections that teach (issue 23): an organisation's own word on a document's areas. The
 * organisation's effective areas are the stored labels less its "remove" rows plus its "add"
 * rows; no other organisation sees them. One row per (organisation, document, area).
 */

import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { documents } from "./documents.ts";

export const areaCorrections = pgTable(
  "area_corrections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id").notNull(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    area: text("area").notNull(),
    /** "add" (a missing area) or "remove" (a wrong one). */
    action: text("action").$type<"add" | "remove">().notNull(),
    reason: text("reason").notNull(),
    userId: text("user_id").notNull(),
    userName: text("user_name").notNull(),
    userEmail: text("user_email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("area_corrections_org_doc_area_idx").on(t.organizationId, t.documentId, t.area),
    index("area_corrections_org_area_idx").on(t.organizationId, t.area, t.action),
    index("area_corrections_doc_idx").on(t.documentId),
    check("area_corrections_action_check", sql`${t.action} IN ('add', 'remove')`),
  ],
);
