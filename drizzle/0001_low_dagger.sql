CREATE TABLE "document_provenance" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"url" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"sha256" text NOT NULL,
	"parser" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_relations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"type" text NOT NULL,
	"code" text,
	"direction" text NOT NULL,
	"target_source" text NOT NULL,
	"target_source_id" text NOT NULL,
	"target_document_id" uuid,
	"label" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"content_hash" text NOT NULL,
	"record" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" text NOT NULL,
	"source_id" text NOT NULL,
	"title" text NOT NULL,
	"language" text NOT NULL,
	"titles" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"published_on" text NOT NULL,
	"kind" text,
	"rank" text,
	"rank_code" text,
	"department" text,
	"department_code" text,
	"jurisdiction" text,
	"areas" jsonb,
	"relevance" text,
	"classification" jsonb,
	"classifier_version" text,
	"official_url" text NOT NULL,
	"effective_dates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sample" boolean DEFAULT false NOT NULL,
	"section" text,
	"epigraph" text,
	"subjects" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"alerts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"eurovoc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"paragraphs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"record" jsonb NOT NULL,
	"body_text" text DEFAULT '' NOT NULL,
	"content_hash" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"search_es" "tsvector",
	"search_en" "tsvector",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "source_feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"url" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "source_fetches" (
	"key" text PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "source_status" (
	"source" text PRIMARY KEY NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"last_error_url" text,
	"last_error_at" timestamp with time zone,
	"documents_day" text,
	"documents_today" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_provenance" ADD CONSTRAINT "document_provenance_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_relations" ADD CONSTRAINT "document_relations_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_relations" ADD CONSTRAINT "document_relations_target_document_id_documents_id_fk" FOREIGN KEY ("target_document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_versions" ADD CONSTRAINT "document_versions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_provenance_doc_idx" ON "document_provenance" USING btree ("document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "document_relations_uq" ON "document_relations" USING btree ("document_id","type","target_source_id","direction");--> statement-breakpoint
CREATE INDEX "document_relations_target_idx" ON "document_relations" USING btree ("target_source","target_source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "document_versions_doc_version_uq" ON "document_versions" USING btree ("document_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_source_id_uq" ON "documents" USING btree ("source","source_id");--> statement-breakpoint
CREATE INDEX "documents_published_idx" ON "documents" USING btree ("published_on","id");--> statement-breakpoint
CREATE INDEX "documents_jurisdiction_idx" ON "documents" USING btree ("jurisdiction");--> statement-breakpoint
CREATE INDEX "documents_kind_idx" ON "documents" USING btree ("kind");--> statement-breakpoint
CREATE UNIQUE INDEX "source_feeds_org_url_uq" ON "source_feeds" USING btree ("organization_id","url");