-- Followed laws (issue 25): consolidated texts block by block, every version with its provenance,
-- early warnings and law changes. Follows are alert profiles with a law scope: two nullable columns
-- on alert_profiles (existing profiles keep NULL = an ordinary document profile). New tables and
-- nullable columns only: safe on an existing database.
CREATE TABLE IF NOT EXISTS "laws" (
	"id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"title" text NOT NULL,
	"eli" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"index_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "laws_source_check" CHECK ("source" IN ('boe', 'eu'))
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "law_blocks" (
	"law_id" text NOT NULL,
	"block_id" text NOT NULL,
	"kind" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"latest_date" date NOT NULL,
	"expires_on" date,
	"payload_hash" text,
	CONSTRAINT "law_blocks_law_id_block_id_pk" PRIMARY KEY ("law_id", "block_id"),
	CONSTRAINT "law_blocks_law_id_laws_id_fk" FOREIGN KEY ("law_id") REFERENCES "public"."laws"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "law_blocks_law_position_idx" ON "law_blocks" USING btree ("law_id", "position");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "law_block_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"law_id" text NOT NULL,
	"block_id" text NOT NULL,
	"norm_id" text NOT NULL,
	"published_on" date NOT NULL,
	"in_force_on" date,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"hash" text NOT NULL,
	"source_url" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"payload_hash" text NOT NULL,
	"corrected_at" timestamp with time zone,
	CONSTRAINT "law_block_versions_block_fk" FOREIGN KEY ("law_id", "block_id") REFERENCES "public"."law_blocks"("law_id", "block_id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "law_block_versions_uq" ON "law_block_versions" USING btree ("law_id", "block_id", "norm_id", "published_on");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "law_block_versions_norm_idx" ON "law_block_versions" USING btree ("norm_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "law_announcements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"law_id" text NOT NULL,
	"document_id" uuid,
	"act_id" text NOT NULL,
	"relation_code" text,
	"relation" text DEFAULT '' NOT NULL,
	"relation_text" text DEFAULT '' NOT NULL,
	"articles" text[] DEFAULT '{}'::text[] NOT NULL,
	"published_on" date NOT NULL,
	"consolidated_at" timestamp with time zone,
	"first_alert_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "law_announcements_law_act_uq" ON "law_announcements" USING btree ("law_id", "act_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "law_announcements_pending_idx" ON "law_announcements" USING btree ("law_id", "consolidated_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "law_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"law_id" text NOT NULL,
	"kind" text NOT NULL,
	"norm_id" text,
	"published_on" date,
	"block_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"announcement_id" uuid,
	"previous_change_id" uuid,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "law_changes_kind_check" CHECK ("kind" IN ('announced', 'consolidated'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "law_changes_law_idx" ON "law_changes" USING btree ("law_id", "created_at");
--> statement-breakpoint
ALTER TABLE "alert_profiles" ADD COLUMN IF NOT EXISTS "law_id" text;
--> statement-breakpoint
ALTER TABLE "alert_profiles" ADD COLUMN IF NOT EXISTS "law_blocks" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "alert_profiles_law_idx" ON "alert_profiles" USING btree ("law_id") WHERE "law_id" IS NOT NULL;
