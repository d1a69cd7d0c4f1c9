-- Full-text search for documents (issue 11): unaccent + pg_trgm, Spanish and English
-- configurations that ignore accents, trigger-maintained tsvector columns, GIN indexes,
-- and a trigram index on titles. Runs the same on PostgreSQL and PGlite (which loads the
-- unaccent and pg_trgm contrib extensions in app/.server/db/client.ts).
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'es_unaccent') THEN
    CREATE TEXT SEARCH CONFIGURATION es_unaccent (COPY = spanish);
    ALTER TEXT SEARCH CONFIGURATION es_unaccent ALTER MAPPING FOR hword, hword_part, word WITH unaccent, spanish_stem;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'en_unaccent') THEN
    CREATE TEXT SEARCH CONFIGURATION en_unaccent (COPY = english);
    ALTER TEXT SEARCH CONFIGURATION en_unaccent ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION documents_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  labels text := coalesce((SELECT string_agg(x->>'label', ' ') FROM jsonb_array_elements(coalesce(NEW.subjects, '[]'::jsonb) || coalesce(NEW.alerts, '[]'::jsonb) || coalesce(NEW.eurovoc, '[]'::jsonb)) AS x), '');
  meta text := coalesce(NEW.epigraph, '') || ' ' || coalesce(NEW.department, '') || ' ' || coalesce(NEW.rank, '') || ' ' || NEW.source_id || ' ' || labels;
  body text := left(coalesce(NEW.body_text, ''), 300000);
BEGIN
  NEW.search_es :=
    setweight(to_tsvector('es_unaccent', coalesce(NEW.titles->>'es', NEW.title)), 'A') ||
    setweight(to_tsvector('es_unaccent', meta), 'B') ||
    setweight(to_tsvector('es_unaccent', CASE WHEN NEW.language = 'es' THEN body ELSE '' END), 'C');
  NEW.search_en :=
    setweight(to_tsvector('en_unaccent', coalesce(NEW.titles->>'en', CASE WHEN NEW.language = 'en' THEN NEW.title ELSE '' END)), 'A') ||
    setweight(to_tsvector('en_unaccent', meta), 'B') ||
    setweight(to_tsvector('en_unaccent', CASE WHEN NEW.language = 'en' THEN body ELSE '' END), 'C');
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_search_trg BEFORE INSERT OR UPDATE OF title, titles, body_text, epigraph, department, rank, subjects, alerts, eurovoc, language
  ON documents FOR EACH ROW EXECUTE FUNCTION documents_search_update();
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS documents_search_es_idx ON documents USING gin (search_es);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS documents_search_en_idx ON documents USING gin (search_en);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS documents_title_trgm_idx ON documents USING gin (title gin_trgm_ops);
