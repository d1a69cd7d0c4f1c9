-- The catalogue of laws to follow (issue 39): every consolidated BOE law and every EU act with
-- consolidated versions, with its number and common names, searchable by title, number and name in
-- Spanish and English (accents and case aside: the es_unaccent/en_unaccent configurations of
-- 0004_documents_search, and pg_trgm on the identifiers and names). Public data: no organisation
-- column; which laws an organisation follows stays in alert_profiles. A new table only: safe on an
-- existing database.
CREATE TABLE IF NOT EXISTS "law_catalogue" (
	"id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"title" text NOT NULL,
	"titles" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"number" text,
	"rank" text,
	"aliases" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dated_on" date,
	"in_force" boolean DEFAULT true NOT NULL,
	"eli" text,
	"source_updated_at" timestamp with time zone,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"keys" text DEFAULT '' NOT NULL,
	"search_es" tsvector,
	"search_en" tsvector,
	CONSTRAINT "law_catalogue_source_check" CHECK ("source" IN ('boe', 'eu'))
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION law_catalogue_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  names_es text := coalesce((SELECT string_agg(x, ' ') FROM jsonb_array_elements_text(coalesce(NEW.aliases->'es', '[]'::jsonb)) AS x), '');
  names_en text := coalesce((SELECT string_agg(x, ' ') FROM jsonb_array_elements_text(coalesce(NEW.aliases->'en', '[]'::jsonb)) AS x), '');
  acronyms text := coalesce((SELECT string_agg(x, ' ') FROM jsonb_array_elements_text(coalesce(NEW.aliases->'acronyms', '[]'::jsonb)) AS x), '');
  every_name text := coalesce((SELECT string_agg(x, '|') FROM jsonb_array_elements_text(coalesce(NEW.aliases->'es', '[]'::jsonb) || coalesce(NEW.aliases->'en', '[]'::jsonb) || coalesce(NEW.aliases->'acronyms', '[]'::jsonb)) AS x), '');
BEGIN
  NEW.search_es :=
    setweight(to_tsvector('es_unaccent', coalesce(NEW.titles->>'es', CASE WHEN NEW.source = 'boe' THEN NEW.title ELSE '' END)), 'A') ||
    setweight(to_tsvector('es_unaccent', names_es || ' ' || acronyms), 'A') ||
    setweight(to_tsvector('es_unaccent', coalesce(NEW.rank, '') || ' ' || coalesce(NEW.number, '')), 'B');
  NEW.search_en :=
    setweight(to_tsvector('en_unaccent', coalesce(NEW.titles->>'en', CASE WHEN NEW.source = 'eu' THEN NEW.title ELSE '' END)), 'A') ||
    setweight(to_tsvector('en_unaccent', names_en || ' ' || acronyms), 'A') ||
    setweight(to_tsvector('en_unaccent', coalesce(NEW.rank, '') || ' ' || coalesce(NEW.number, '')), 'B');
  -- Identifiers and names, lower case without accents, between bars: "|ley 38/2003|lgs|…|".
  NEW.keys := lower(unaccent('|' || NEW.id || '|' || coalesce(NEW.number, '') || '|' ||
    coalesce(NEW.rank || ' ' || NEW.number, '') || '|' || every_name || '|'));
  RETURN NEW;
END $$;
--> statement-breakpoint
-- The GIN indexes without a pending list: PGlite has no autovacuum to merge one, and a query
-- would read the whole list linearly (the daily refresh writes straight into the indexes).
CREATE TRIGGER law_catalogue_search_trg BEFORE INSERT OR UPDATE OF title, titles, number, rank, aliases
  ON law_catalogue FOR EACH ROW EXECUTE FUNCTION law_catalogue_search_update();
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS law_catalogue_search_es_idx ON law_catalogue USING gin (search_es) WITH (fastupdate = off);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS law_catalogue_search_en_idx ON law_catalogue USING gin (search_en) WITH (fastupdate = off);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS law_catalogue_keys_trgm_idx ON law_catalogue USING gin (keys gin_trgm_ops) WITH (fastupdate = off);
