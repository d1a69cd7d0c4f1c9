-- A stored or changed document whose pipeline (topics, alert matching, law warnings) has not been
-- handed over yet: set in the same transaction as the document, cleared once the document-stored
-- event is queued (or, without jobs, has run). A process killed between the two leaves it set, and
-- the next ingestion run or start hands it over again (decision 0145).
ALTER TABLE "documents" ADD COLUMN "pipeline_pending" text;
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_pipeline_pending_check" CHECK ("pipeline_pending" in ('new', 'changed'));
--> statement-breakpoint
CREATE INDEX "documents_pipeline_pending_idx" ON "documents" ("updated_at") WHERE "pipeline_pending" IS NOT NULL;
