ALTER TABLE "auth_session" ADD COLUMN "sso_provider_id" text;
