CREATE TABLE "document_reads" (
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"document_id" uuid NOT NULL,
	"first_read_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"author_id" text NOT NULL,
	"document_id" uuid NOT NULL,
	"visibility" text NOT NULL,
	"group_id" text,
	"paragraph" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "document_reads_user_document_uq" ON "document_reads" USING btree ("user_id","document_id");--> statement-breakpoint
CREATE INDEX "document_reads_org_document_idx" ON "document_reads" USING btree ("organization_id","document_id");--> statement-breakpoint
CREATE INDEX "notes_org_document_idx" ON "notes" USING btree ("organization_id","document_id");