-- What kind of failure a source's last error was (unreachable, timeout, http, rate_limited,
-- malformed, other), and when the run behind its last success started: an error older than
-- that start is past. Rows written before this migration have neither (the kind is then
-- read from the stored message, and the success time stands for the run's start).
ALTER TABLE "source_status" ADD COLUMN IF NOT EXISTS "last_error_kind" text;--> statement-breakpoint
ALTER TABLE "source_status" ADD COLUMN IF NOT EXISTS "last_success_run_started_at" timestamp with time zone;--> statement-breakpoint
-- The backfill of missing days at start (INGEST_SINCE): one row per source, reset at each start.
CREATE TABLE IF NOT EXISTS "ingest_backfill" (
  "source" text PRIMARY KEY NOT NULL,
  "days_total" integer DEFAULT 0 NOT NULL,
  "days_done" integer DEFAULT 0 NOT NULL,
  "days_failed" integer DEFAULT 0 NOT NULL,
  "documents" integer DEFAULT 0 NOT NULL,
  "first_day" text,
  "last_day" text,
  "started_at" timestamp with time zone DEFAULT now() NOT NULL,
  "finished_at" timestamp with time zone,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
