-- A law poll writes each block's new versions in their own transaction, then records the law change
-- that alerts the law's followers. A version written to be reported is marked (unreported: 'added'
-- or 'corrected') in the transaction that writes it, and the mark is cleared in the transaction that
-- records the change; a process killed between the two leaves the marks, and the next poll or start
-- records the change from them (decision 0162). A consolidated change is recorded waiting for its
-- matching (match_pending), cleared in the transaction that stores its matches.
ALTER TABLE "law_block_versions" ADD COLUMN "unreported" text;
--> statement-breakpoint
ALTER TABLE "law_block_versions" ADD CONSTRAINT "law_block_versions_unreported_check" CHECK ("unreported" in ('added', 'corrected'));
--> statement-breakpoint
CREATE INDEX "law_block_versions_unreported_idx" ON "law_block_versions" ("law_id") WHERE "unreported" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "law_changes" ADD COLUMN "match_pending" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE INDEX "law_changes_match_pending_idx" ON "law_changes" ("created_at") WHERE "match_pending";
