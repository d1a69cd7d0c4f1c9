-- Enterprise identity (issue 41): identity providers per organisation (OIDC, SAML 2.0), claimed
-- domains, the IdP group mapping, linked IdP subjects, one-time sign-in requests and SAML
-- assertion IDs, links waiting for the owner's confirmation, the SSO policy, SCIM tokens.
-- New tables: nothing to backfill.
CREATE TABLE IF NOT EXISTS "sso_provider" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL REFERENCES "auth_organization"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"tested_at" timestamp (3) with time zone,
	"oidc_issuer" text,
	"oidc_client_id" text,
	"oidc_client_secret" text,
	"oidc_scopes" text DEFAULT 'openid email profile' NOT NULL,
	"saml_entry_point" text,
	"saml_idp_entity_id" text,
	"saml_certificate" text,
	"saml_metadata_url" text,
	"jit" boolean DEFAULT true NOT NULL,
	"trust_idp_mfa" boolean DEFAULT false NOT NULL,
	"default_role" text DEFAULT 'member' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sso_provider_org_idx" ON "sso_provider" ("organization_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sso_domain" (
	"domain" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL REFERENCES "auth_organization"("id") ON DELETE CASCADE,
	"challenge" text NOT NULL,
	"verified_at" timestamp (3) with time zone,
	"verified_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sso_domain_org_idx" ON "sso_domain" ("organization_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sso_group_mapping" (
	"id" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL REFERENCES "sso_provider"("id") ON DELETE CASCADE,
	"idp_group" text NOT NULL,
	"role" text,
	"team_id" text REFERENCES "auth_team"("id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sso_group_mapping_provider_idx" ON "sso_group_mapping" ("provider_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sso_identity" (
	"provider_id" text NOT NULL REFERENCES "sso_provider"("id") ON DELETE CASCADE,
	"subject" text NOT NULL,
	"user_id" text NOT NULL REFERENCES "auth_user"("id") ON DELETE CASCADE,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sso_identity_subject_idx" ON "sso_identity" ("provider_id","subject");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sso_identity_user_idx" ON "sso_identity" ("user_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sso_request" (
	"id" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL REFERENCES "sso_provider"("id") ON DELETE CASCADE,
	"purpose" text NOT NULL,
	"nonce" text,
	"code_verifier" text,
	"next" text,
	"user_id" text,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "saml_assertion_used" (
	"id" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL REFERENCES "sso_provider"("id") ON DELETE CASCADE,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sso_pending_link" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL REFERENCES "sso_provider"("id") ON DELETE CASCADE,
	"subject" text NOT NULL,
	"user_id" text NOT NULL REFERENCES "auth_user"("id") ON DELETE CASCADE,
	"groups" text DEFAULT '[]' NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sso_policy" (
	"organization_id" text PRIMARY KEY NOT NULL REFERENCES "auth_organization"("id") ON DELETE CASCADE,
	"sso_required" boolean DEFAULT false NOT NULL,
	"break_glass_user_id" text REFERENCES "auth_user"("id") ON DELETE SET NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "scim_token" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL REFERENCES "auth_organization"("id") ON DELETE CASCADE,
	"token_hash" text NOT NULL UNIQUE,
	"created_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scim_token_org_idx" ON "scim_token" ("organization_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "scim_resource" (
	"organization_id" text NOT NULL REFERENCES "auth_organization"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"resource_id" text NOT NULL,
	"external_id" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "scim_resource_idx" ON "scim_resource" ("organization_id","kind","resource_id");
