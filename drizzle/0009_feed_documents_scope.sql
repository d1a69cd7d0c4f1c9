-- Feed documents belong to the feed that brought them (issue 22, decision 0080): the key is
-- (source, source_id, feed_id), feed_id null for the public sources (BOE, EUR-Lex). NULLS NOT
-- DISTINCT keeps (source, source_id) unique for them, as before.
ALTER TABLE "documents" ADD COLUMN IF NOT EXISTS "feed_id" uuid;
--> statement-breakpoint
-- Existing feed entries go to the oldest feed with their feed URL (the first provenance URL, the
-- old reach rule); another organisation's feed with the same URL stores its own copies at its next
-- run. Entries of feeds no longer configured keep feed_id null: within no organisation's reach.
UPDATE "documents" d SET "feed_id" = (
  SELECT f."id" FROM "source_feeds" f WHERE f."url" = d."record"->'provenance'->0->>'url'
  ORDER BY f."created_at", f."id" LIMIT 1)
WHERE d."source" = 'feed' AND d."feed_id" IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "documents_source_feed_id_uq" ON "documents" ("source", "source_id", "feed_id") NULLS NOT DISTINCT;
--> statement-breakpoint
DROP INDEX IF EXISTS "documents_source_id_uq";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "documents_feed_id_idx" ON "documents" ("feed_id") WHERE "feed_id" IS NOT NULL;
--> statement-breakpoint
-- Links other than http(s) (javascript:, data:, …) are neither shown nor forwarded.
UPDATE "documents" SET "official_url" = '',
  "record" = jsonb_set(jsonb_set("record", '{officialUrl}', '""'::jsonb), '{links}', '{}'::jsonb)
WHERE "source" = 'feed' AND "official_url" !~* '^https?://';
--> statement-breakpoint
-- Sign-in failures remember the (hashed) address they came from: one address that fails too often
-- is refused for that account, and the account locks only when failures come from several
-- addresses (issue 22, finding 10; decision 0082). Rows from before this keep a null address.
ALTER TABLE "auth_sign_in_failure" ADD COLUMN IF NOT EXISTS "ip_hash" text;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "auth_sign_in_failure_email_ip_at_idx" ON "auth_sign_in_failure" ("email", "ip_hash", "at");
--> statement-breakpoint
-- What matching fanned out across organisations before the rule held everywhere (issue 22,
-- finding 1): unsent deliveries, in-app alerts, matches and topic labels of feed entries outside
-- the receiving organisation's reach are removed, so nothing queued before this runs goes out.
DELETE FROM "deliveries" dl USING "documents" d
WHERE dl."status" <> 'sent' AND d."source" = 'feed'
  AND d."id"::text = coalesce(dl."payload"->>'documentId', dl."payload"->'body'->'data'->'document'->>'id')
  AND NOT EXISTS (SELECT 1 FROM "source_feeds" f WHERE f."id" = d."feed_id" AND f."organization_id" = dl."organization_id");
--> statement-breakpoint
DELETE FROM "alerts" a USING "alert_profiles" p, "documents" d
WHERE p."id" = a."profile_id" AND d."id" = a."document_id" AND d."source" = 'feed'
  AND NOT EXISTS (SELECT 1 FROM "source_feeds" f WHERE f."id" = d."feed_id" AND f."organization_id" = p."organization_id");
--> statement-breakpoint
DELETE FROM "alert_matches" m USING "alert_profiles" p, "documents" d
WHERE p."id" = m."profile_id" AND d."id" = m."document_id" AND d."source" = 'feed'
  AND NOT EXISTS (SELECT 1 FROM "source_feeds" f WHERE f."id" = d."feed_id" AND f."organization_id" = p."organization_id");
--> statement-breakpoint
DELETE FROM "document_topics" t USING "documents" d
WHERE d."id" = t."document_id" AND d."source" = 'feed'
  AND NOT EXISTS (SELECT 1 FROM "source_feeds" f WHERE f."id" = d."feed_id" AND f."organization_id" = t."organization_id");
