-- Saved searches and alert profiles' Atom feeds (issue 39). New tables only: safe on an existing
-- database while instances of the previous build keep running.
CREATE TABLE IF NOT EXISTS "saved_searches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "saved_searches_org_user_idx" ON "saved_searches" USING btree ("organization_id","user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "saved_searches_org_user_name_uq" ON "saved_searches" USING btree ("organization_id","user_id","name");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "profile_feeds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"profile_id" uuid NOT NULL REFERENCES "alert_profiles"("id") ON DELETE CASCADE,
	"token_hash" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "profile_feeds_token_hash_uq" ON "profile_feeds" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profile_feeds_profile_idx" ON "profile_feeds" USING btree ("profile_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profile_feeds_created_by_idx" ON "profile_feeds" USING btree ("organization_id","created_by");
