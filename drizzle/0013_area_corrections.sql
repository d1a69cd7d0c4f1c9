-- Corrections that teach (issue 23): an organisation's members mark a document's area wrong or
-- add a missing one, with a reason. One row per (organisation, document, area): the latest word
-- wins. Only that organisation's view changes (its page, search filters and facets, alerts);
-- admins export the rows as labelled data. A new table: nothing to backfill.
CREATE TABLE IF NOT EXISTS "area_corrections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"document_id" uuid NOT NULL,
	"area" text NOT NULL,
	"action" text NOT NULL,
	"reason" text NOT NULL,
	"user_id" text NOT NULL,
	"user_name" text NOT NULL,
	"user_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "area_corrections_action_check" CHECK ("action" IN ('add', 'remove')),
	CONSTRAINT "area_corrections_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "area_corrections_org_doc_area_idx" ON "area_corrections" USING btree ("organization_id","document_id","area");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "area_corrections_org_area_idx" ON "area_corrections" USING btree ("organization_id","area","action");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "area_corrections_doc_idx" ON "area_corrections" USING btree ("document_id");
