-- Decision 0163. An SSO request keeps the browser's language at the sign-in start, so that a member
-- created at their first sign-in gets it when the IdP says none. A SAML provider configured by
-- metadata URL records when its metadata was last read, the last attempt (a failed signature
-- re-reads it at most once per few minutes) and the last attempt's error, shown to the admins.
ALTER TABLE "sso_request" ADD COLUMN "locale" text;
--> statement-breakpoint
ALTER TABLE "sso_provider" ADD COLUMN "saml_metadata_fetched_at" timestamp (3) with time zone;
--> statement-breakpoint
ALTER TABLE "sso_provider" ADD COLUMN "saml_metadata_attempted_at" timestamp (3) with time zone;
--> statement-breakpoint
ALTER TABLE "sso_provider" ADD COLUMN "saml_metadata_error" text;
