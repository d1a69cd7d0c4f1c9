-- Calendar feeds (issue 26): a secret, revocable ICS URL per member (user_id set) or per
-- organisation (user_id null). Only the SHA-256 of the token is stored; the URL is shown once.
-- A new table: nothing to backfill.
CREATE TABLE IF NOT EXISTS "calendar_feeds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text,
	"token_hash" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "calendar_feeds_token_hash_uq" ON "calendar_feeds" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "calendar_feeds_org_user_idx" ON "calendar_feeds" USING btree ("organization_id","user_id");
