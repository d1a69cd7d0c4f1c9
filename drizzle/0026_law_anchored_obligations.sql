-- Obligations anchored to an article of a followed law (issue 39, decision 0146): an obligation is
-- anchored to a paragraph of a document (as before: anchor_kind 'paragraph', document_id set) or to
-- a block of a law at one of its versions (anchor_kind 'article': law_id, block_id, law_version_id;
-- no document). A new version of that block opens a review (obligation_reviews), decided by a
-- member and kept with who and when. Existing rows are paragraph anchors: safe on a live database.
ALTER TABLE "obligations" ADD COLUMN IF NOT EXISTS "anchor_kind" text DEFAULT 'paragraph' NOT NULL;--> statement-breakpoint
ALTER TABLE "obligations" ADD COLUMN IF NOT EXISTS "law_id" text;--> statement-breakpoint
ALTER TABLE "obligations" ADD COLUMN IF NOT EXISTS "block_id" text;--> statement-breakpoint
ALTER TABLE "obligations" ADD COLUMN IF NOT EXISTS "law_version_id" uuid;--> statement-breakpoint
ALTER TABLE "obligations" ALTER COLUMN "document_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "obligations" DROP CONSTRAINT IF EXISTS "obligations_anchor_check";--> statement-breakpoint
ALTER TABLE "obligations" ADD CONSTRAINT "obligations_anchor_check" CHECK (("obligations"."anchor_kind" = 'paragraph' and "obligations"."document_id" is not null and "obligations"."law_id" is null) or ("obligations"."anchor_kind" = 'article' and "obligations"."document_id" is null and "obligations"."law_id" is not null and "obligations"."block_id" is not null and "obligations"."law_version_id" is not null));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "obligations_law_block_idx" ON "obligations" USING btree ("law_id","block_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "obligation_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"obligation_id" uuid NOT NULL REFERENCES "public"."obligations"("id") ON DELETE cascade,
	"law_id" text NOT NULL,
	"block_id" text NOT NULL,
	"from_version_id" uuid NOT NULL,
	"from_text" text NOT NULL,
	"to_version_id" uuid NOT NULL,
	"to_text" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"note" text,
	"new_text" text,
	"decided_by" text,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "obligation_reviews_decision_check" CHECK ("obligation_reviews"."decision" is null or "obligation_reviews"."decision" in ('still_applies', 'changed', 'no_longer_applies'))
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "obligation_reviews_org_obligation_idx" ON "obligation_reviews" USING btree ("organization_id","obligation_id","opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "obligation_reviews_open_uq" ON "obligation_reviews" USING btree ("obligation_id") WHERE "obligation_reviews"."decision" is null;
