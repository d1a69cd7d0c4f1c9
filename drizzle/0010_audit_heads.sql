-- Decision 0084: each organisation's chain head (seq and hash of its newest event) kept with an
-- HMAC under a key derived from AUTH_SECRET, which the database role does not know; purge
-- anchors carry the same kind of signature. Chains that exist now get their head here, unsigned:
-- the server that applied this migration signs them (and their anchors) at that same start.
CREATE TABLE IF NOT EXISTS "audit_heads" (
  "organization_id" text PRIMARY KEY NOT NULL,
  "seq" bigint NOT NULL,
  "hash" text NOT NULL,
  "signature" text,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_anchors" ADD COLUMN IF NOT EXISTS "signature" text;
--> statement-breakpoint
INSERT INTO "audit_heads" ("organization_id", "seq", "hash")
SELECT DISTINCT ON ("organization_id") "organization_id", "seq", "hash"
FROM "audit_events"
ORDER BY "organization_id", "seq" DESC
ON CONFLICT ("organization_id") DO NOTHING;
--> statement-breakpoint
INSERT INTO "audit_heads" ("organization_id", "seq", "hash")
SELECT "organization_id", "seq", "hash" FROM "audit_anchors"
ON CONFLICT ("organization_id") DO NOTHING;
