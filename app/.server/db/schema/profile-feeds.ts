/**
 * Atom feeds of alert profiles (issue 39): a secret URL per profile listing the documents it
 * matched. Only the token's SHA-256 is stored; revoking sets revokedAt. Removing the profile
 * removes its feeds.
 */
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { alertProfiles } from "./alerts.ts";

export const profileFeeds = pgTable(
  "profile_feeds",
  {
    id: uuid("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    profileId: uuid("profile_id")
      .notNull()
      .references(() => alertProfiles.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("profile_feeds_token_hash_uq").on(table.tokenHash),
    index("profile_feeds_profile_idx").on(table.profileId),
    index("profile_feeds_created_by_idx").on(table.organizationId, table.createdBy),
  ],
);
