-- Organisation events for webhooks (issue 24): a subscription names the event types it wants.
-- Existing subscriptions keep getting what they got (document.matched) through the default.
ALTER TABLE "webhooks" ADD COLUMN IF NOT EXISTS "events" text[] DEFAULT '{document.matched}'::text[] NOT NULL;
