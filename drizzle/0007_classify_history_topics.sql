CREATE TABLE "document_labels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"cause" text NOT NULL,
	"classifier_version" text NOT NULL,
	"areas" jsonb NOT NULL,
	"jurisdiction" text,
	"kind" text,
	"relevance" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_topics" (
	"organization_id" text NOT NULL,
	"topic_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"reasons" jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_topics_topic_id_document_id_pk" PRIMARY KEY("topic_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "organization_topics" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"keywords" jsonb NOT NULL,
	"area" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_labels" ADD CONSTRAINT "document_labels_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_topics" ADD CONSTRAINT "document_topics_topic_id_organization_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."organization_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_topics" ADD CONSTRAINT "document_topics_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_labels_doc_idx" ON "document_labels" USING btree ("document_id","at");--> statement-breakpoint
CREATE INDEX "document_topics_org_doc_idx" ON "document_topics" USING btree ("organization_id","document_id");--> statement-breakpoint
CREATE INDEX "organization_topics_org_idx" ON "organization_topics" USING btree ("organization_id");