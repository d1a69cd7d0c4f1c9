-- Law alerts in two phases (issue 25): a change's matches are stored first, then their deliveries
-- are written in batches. A match still waiting for its deliveries has fanout_pending = true.
ALTER TABLE "alert_matches" ADD COLUMN "fanout_pending" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE INDEX "alert_matches_fanout_idx" ON "alert_matches" ("created_at") WHERE "fanout_pending";
