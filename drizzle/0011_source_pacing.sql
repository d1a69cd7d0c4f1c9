-- Politeness across instances (issue 20): the moment each source last received a request
-- from any instance; a request goes out only when that moment is at least the source's
-- spacing ago (see app/.server/sources/pacing.ts).
CREATE TABLE IF NOT EXISTS "source_pacing" (
	"source" text PRIMARY KEY NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL
);
