-- Triage and obligations (issue 26): per organisation and document a status, an assignee (member
-- or group), a due date, an impact and a rationale, every change kept as history; obligations
-- anchored to a paragraph; reminder settings and the reminders sent (once per item, user and due
-- date). New tables only: nothing to backfill, safe on an existing database.
CREATE TABLE IF NOT EXISTS "triage_items" (
	"organization_id" text NOT NULL,
	"document_id" uuid NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"assignee_user_id" text,
	"assignee_team_id" text,
	"due_on" date,
	"due_source" text,
	"impact" text,
	"rationale" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "triage_items_organization_id_document_id_pk" PRIMARY KEY ("organization_id", "document_id"),
	CONSTRAINT "triage_items_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "triage_items_status_check" CHECK ("status" in ('new', 'under_review', 'applies', 'does_not_apply', 'in_progress', 'done')),
	CONSTRAINT "triage_items_impact_check" CHECK ("impact" is null or "impact" in ('high', 'medium', 'low')),
	CONSTRAINT "triage_items_due_source_check" CHECK ("due_source" is null or "due_source" in ('entry_into_force', 'application', 'manual'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "triage_items_org_status_idx" ON "triage_items" USING btree ("organization_id","status");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "triage_items_assignee_user_idx" ON "triage_items" USING btree ("assignee_user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "triage_items_assignee_team_idx" ON "triage_items" USING btree ("assignee_team_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "triage_items_due_idx" ON "triage_items" USING btree ("due_on");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "triage_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"document_id" uuid NOT NULL,
	"actor_user_id" text NOT NULL,
	"actor_name" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"changes" jsonb NOT NULL,
	"note" text,
	CONSTRAINT "triage_history_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "triage_history_org_doc_at_idx" ON "triage_history" USING btree ("organization_id","document_id","at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "obligations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"document_id" uuid NOT NULL,
	"anchor" text NOT NULL,
	"excerpt" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"owner_user_id" text,
	"owner_team_id" text,
	"due_on" date,
	"status" text DEFAULT 'open' NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "obligations_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "obligations_status_check" CHECK ("status" in ('open', 'in_progress', 'done', 'not_applicable'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "obligations_org_status_due_idx" ON "obligations" USING btree ("organization_id","status","due_on");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "obligations_org_document_idx" ON "obligations" USING btree ("organization_id","document_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "obligations_owner_user_idx" ON "obligations" USING btree ("owner_user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "obligations_owner_team_idx" ON "obligations" USING btree ("owner_team_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "obligation_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"obligation_id" uuid NOT NULL,
	"actor_user_id" text NOT NULL,
	"actor_name" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"changes" jsonb NOT NULL,
	"note" text,
	CONSTRAINT "obligation_history_obligation_id_obligations_id_fk" FOREIGN KEY ("obligation_id") REFERENCES "public"."obligations"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "obligation_history_org_obligation_at_idx" ON "obligation_history" USING btree ("organization_id","obligation_id","at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "reminder_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"hour" smallint DEFAULT 9 NOT NULL,
	"days_before" smallint DEFAULT 3 NOT NULL,
	"mail" boolean DEFAULT true NOT NULL,
	CONSTRAINT "reminder_settings_hour_check" CHECK ("hour" between 0 and 23),
	CONSTRAINT "reminder_settings_days_check" CHECK ("days_before" between 0 and 60)
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "reminders_sent" (
	"kind" text NOT NULL,
	"item_key" text NOT NULL,
	"user_id" text NOT NULL,
	"due_on" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminders_sent_kind_item_key_user_id_due_on_pk" PRIMARY KEY ("kind", "item_key", "user_id", "due_on"),
	CONSTRAINT "reminders_sent_kind_check" CHECK ("kind" in ('triage', 'obligation'))
);
