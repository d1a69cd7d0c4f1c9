CREATE TABLE "alert_matches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_profiles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text,
	"group_id" text,
	"name" text NOT NULL,
	"areas" text[] DEFAULT '{}'::text[] NOT NULL,
	"jurisdictions" text[] DEFAULT '{}'::text[] NOT NULL,
	"kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"sources" text[] DEFAULT '{}'::text[] NOT NULL,
	"min_relevance" smallint DEFAULT 0 NOT NULL,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"query" text,
	"email_mode" text DEFAULT 'off' NOT NULL,
	"digest_hour" smallint DEFAULT 8 NOT NULL,
	"time_zone" text DEFAULT 'Europe/Madrid' NOT NULL,
	"chat_webhook_url" text,
	"language" text DEFAULT 'es' NOT NULL,
	"muted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"document_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"match_key" text NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"organization_id" text,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"give_up_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"url" text NOT NULL,
	"areas" text[] DEFAULT '{}'::text[] NOT NULL,
	"jurisdictions" text[] DEFAULT '{}'::text[] NOT NULL,
	"kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"sources" text[] DEFAULT '{}'::text[] NOT NULL,
	"min_relevance" smallint DEFAULT 0 NOT NULL,
	"query" text,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
ALTER TABLE "alert_matches" ADD CONSTRAINT "alert_matches_profile_id_alert_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."alert_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_matches_document_profile_uq" ON "alert_matches" USING btree ("document_id","profile_id");--> statement-breakpoint
CREATE INDEX "alert_matches_profile_idx" ON "alert_matches" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "alert_profiles_org_idx" ON "alert_profiles" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "alert_profiles_user_idx" ON "alert_profiles" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "alert_profiles_group_idx" ON "alert_profiles" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_user_document_profile_uq" ON "alerts" USING btree ("user_id","document_id","profile_id");--> statement-breakpoint
CREATE INDEX "alerts_user_id_idx" ON "alerts" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "alerts_user_document_idx" ON "alerts" USING btree ("user_id","document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_match_channel_recipient_uq" ON "deliveries" USING btree ("match_key","channel","recipient");--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhooks_org_idx" ON "webhooks" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "document_reads_user_document_uq" ON "document_reads" USING btree ("user_id","document_id");--> statement-breakpoint
CREATE INDEX "document_reads_org_document_idx" ON "document_reads" USING btree ("organization_id","document_id");--> statement-breakpoint
CREATE INDEX "notes_org_document_idx" ON "notes" USING btree ("organization_id","document_id");