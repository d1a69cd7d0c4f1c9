/**
 * Calendar feeds (issue 26): a secret ICS URL per member (userId set) or per organisation
 * (userId null). Only the token's SHA-256 is stored; revoking sets revokedAt.
 */
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const calendarFeeds = pgTable(
  "calendar_feeds",
  {
    id: uuid("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    userId: text("user_id"),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("calendar_feeds_token_hash_uq").on(table.tokenHash),
    index("calendar_feeds_org_user_idx").on(table.organizationId, table.userId),
  ],
);
