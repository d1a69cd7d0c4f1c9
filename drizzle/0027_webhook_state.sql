-- Webhooks an admin manages on /app/admin/webhooks (issue 39) and that survive a receiver down for a
-- day (issue 42): disabled by an admin, or failing once a delivery ran out of its retry window; their
-- deliveries are then held (status 'held') and queued again, with the same ids, when an admin resumes
-- the webhook. New nullable columns and an index: safe on an existing database, and run twice.
ALTER TABLE "webhooks" ADD COLUMN IF NOT EXISTS "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN IF NOT EXISTS "failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN IF NOT EXISTS "failing_error" text;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deliveries_webhook_idx" ON "deliveries" USING btree ("recipient","created_at") WHERE channel = 'webhook';
