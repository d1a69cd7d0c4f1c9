ALTER TABLE "documents" ADD COLUMN "area_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "documents_source_idx" ON "documents" USING btree ("source");--> statement-breakpoint
CREATE INDEX "documents_relevance_idx" ON "documents" USING btree ("relevance");--> statement-breakpoint
CREATE INDEX "documents_area_ids_idx" ON "documents" USING btree ("area_ids");--> statement-breakpoint
CREATE INDEX "documents_area_ids_gin" ON "documents" USING gin ("area_ids");
--> statement-breakpoint
-- area_ids follows areas on every write, whoever writes (ingestion, reclassification, tests).
CREATE OR REPLACE FUNCTION documents_area_ids_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.area_ids := coalesce(ARRAY(SELECT x->>'id' FROM jsonb_array_elements(coalesce(NEW.areas, '[]'::jsonb)) AS x), '{}'::text[]);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_area_ids_trg BEFORE INSERT OR UPDATE OF areas ON documents
  FOR EACH ROW EXECUTE FUNCTION documents_area_ids_update();
--> statement-breakpoint
UPDATE documents SET area_ids = coalesce(ARRAY(SELECT x->>'id' FROM jsonb_array_elements(coalesce(areas, '[]'::jsonb)) AS x), '{}'::text[]);
