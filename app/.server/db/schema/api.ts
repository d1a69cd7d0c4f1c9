/** REST API tokens (platform spec section 9): shown once, stored as SHA-256 only, revocable. */
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    name: text("name").notNull(),
    /** "read" or "admin". */
    scope: text("scope").notNull().$type<"read" | "admin">(),
    /** SHA-256 (hex) of the whole token. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The token's first characters, shown in lists so people recognise it. */
    prefix: text("prefix").notNull(),
    /** The user who created it (better-auth user id). */
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [index("api_tokens_org_idx").on(table.organizationId)],
);
