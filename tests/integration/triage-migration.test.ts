/**
 * Migration 0017 (triage and obligations) on PGlite and PostgreSQL: applies once, again is a no-op,
 * and the checks refuse what the schema forbids (an unknown status, an hour outside 0-23, a second
 * reminder for the same item, user and due date).
 */
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { databaseTargets } from "../support/postgres.ts";

for (const target of databaseTargets()) {
  describe(`migration 0017_triage on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it("creates the tables with their checks, and applies once", async () => {
      const database = await openDatabase({ databaseUrl: await target.create() });
      try {
        const applied = await migrate(database, defaultMigrationsDir);
        expect(applied).toContain("0017_triage");
        expect(await migrate(database, defaultMigrationsDir)).toEqual([]);
        const [doc] = await database.rows<{ id: string }>(sql`insert into documents
          (source, source_id, title, language, published_on, official_url, record, content_hash)
          values ('boe', 'BOE-A-2026-1', 't', 'es', '2026-11-01', 'https://www.boe.es/x', '{}'::jsonb, 'h') returning id`);
        await database.rows(sql`insert into triage_items (organization_id, document_id, due_on, due_source)
          values ('org-a', ${doc!.id}, '2026-12-01', 'entry_into_force')`);
        const [item] = await database.rows<{ status: string; rationale: string; due_on: unknown }>(
          sql`select status, rationale, due_on::text as due_on from triage_items`,
        );
        expect(item).toEqual({ status: "new", rationale: "", due_on: "2026-12-01" });
        await expect(database.rows(sql`update triage_items set status = 'maybe'`)).rejects.toThrow();
        await expect(
          database.rows(sql`insert into reminder_settings (user_id, hour) values ('u', 24)`),
        ).rejects.toThrow();
        await database.rows(
          sql`insert into reminders_sent (kind, item_key, user_id, due_on) values ('triage', 'k', 'u', '2026-12-01')`,
        );
        await expect(
          database.rows(
            sql`insert into reminders_sent (kind, item_key, user_id, due_on) values ('triage', 'k', 'u', '2026-12-01')`,
          ),
        ).rejects.toThrow();
        // Deleting the document takes its triage state with it.
        await database.rows(sql`delete from documents where id = ${doc!.id}`);
        expect(await database.rows(sql`select 1 from triage_items`)).toEqual([]);
      } finally {
        await database.close();
      }
    }, 240_000);
  });
}
