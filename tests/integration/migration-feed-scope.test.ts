/**
 * Migration 0009 on a database that already holds feed documents (issue 22, findings 1 and 2):
 * each entry goes to the oldest feed with its URL, its non-http(s) link is cleared, and what was
 * fanned out to another organisation (unsent deliveries, in-app alerts) is removed.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { databaseTargets } from "../support/postgres.ts";

/** The committed migrations up to (and including) `lastIdx`, in a directory of their own. */
function migrationsUpTo(lastIdx: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
  cpSync(defaultMigrationsDir, dir, { recursive: true });
  const journalPath = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= lastIdx);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

for (const target of databaseTargets()) {
  describe(`migration 0009 on existing feed documents (${target.name})`, () => {
    let database: Database | undefined;
    const dirs: string[] = [];
    afterAll(async () => {
      await database?.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      await target.cleanup();
    });

    it("scopes entries to a feed, clears bad links and withdraws what crossed organisations", async () => {
      database = await openDatabase({ databaseUrl: await target.create() });
      const before = migrationsUpTo(8);
      dirs.push(before);
      await migrate(database, before);
      const url = "https://shared.example/rss";
      await database.rows(sql`insert into source_feeds (id, organization_id, url, name, created_at) values
        ('00000000-0000-4000-8000-00000000000a', 'org-a', ${url}, 'A', now() - interval '2 days'),
        ('00000000-0000-4000-8000-00000000000b', 'org-b', ${url}, 'B', now() - interval '1 day')`);
      const record = (link: string) =>
        JSON.stringify({
          source: "feed",
          sourceId: "g-1",
          officialUrl: link,
          links: { html: link },
          provenance: [{ url }],
        });
      await database.rows(sql`insert into documents (id, source, source_id, title, language, published_on, official_url, record, content_hash)
        values ('00000000-0000-4000-8000-0000000000d1', 'feed', 'g-1', 'Entrada', 'es', '2026-11-20', 'javascript:alert(1)',
          ${record("javascript:alert(1)")}::jsonb, 'h1'),
        ('00000000-0000-4000-8000-0000000000d2', 'boe', 'BOE-A-2026-1', 'Orden', 'es', '2026-11-20', 'https://www.boe.es/1',
          ${JSON.stringify({ source: "boe", sourceId: "BOE-A-2026-1", provenance: [] })}::jsonb, 'h2')`);
      // Before the fix, organisation C (no such feed) got the entry: a profile's alert and a queued webhook.
      await database.rows(sql`insert into alert_profiles (id, organization_id, name, user_id) values
        ('00000000-0000-4000-8000-0000000000c1', 'org-c', 'Todo', 'carla'),
        ('00000000-0000-4000-8000-0000000000a1', 'org-a', 'Todo', 'ana')`);
      await database.rows(sql`insert into alerts (user_id, document_id, profile_id, title) values
        ('carla', '00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000c1', 'Entrada'),
        ('carla', '00000000-0000-4000-8000-0000000000d2', '00000000-0000-4000-8000-0000000000c1', 'Orden'),
        ('ana', '00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000a1', 'Entrada')`);
      const hook = (doc: string) => JSON.stringify({ webhookId: "w", body: { data: { document: { id: doc } } } });
      await database.rows(sql`insert into deliveries (id, match_key, channel, recipient, organization_id, payload) values
        (gen_random_uuid(), 'webhook:d1', 'webhook', 'w-c', 'org-c', ${hook("00000000-0000-4000-8000-0000000000d1")}::jsonb),
        (gen_random_uuid(), 'webhook:d1', 'webhook', 'w-a', 'org-a', ${hook("00000000-0000-4000-8000-0000000000d1")}::jsonb),
        (gen_random_uuid(), 'webhook:d2', 'webhook', 'w-c', 'org-c', ${hook("00000000-0000-4000-8000-0000000000d2")}::jsonb)`);

      expect(await migrate(database, defaultMigrationsDir)).toContain("0009_feed_documents_scope");

      const docs = await database.rows<{ id: string; feed_id: string | null; official_url: string; links: string }>(
        sql`select id::text, feed_id::text, official_url, record->'links' as links from documents order by id`,
      );
      expect(docs).toEqual([
        {
          id: "00000000-0000-4000-8000-0000000000d1",
          feed_id: "00000000-0000-4000-8000-00000000000a",
          official_url: "",
          links: {},
        },
        {
          id: "00000000-0000-4000-8000-0000000000d2",
          feed_id: null,
          official_url: "https://www.boe.es/1",
          links: null,
        },
      ]);
      const alerts = await database.rows<{ user_id: string; title: string }>(
        sql`select user_id, title from alerts order by user_id, title`,
      );
      expect(alerts).toEqual([
        { user_id: "ana", title: "Entrada" },
        { user_id: "carla", title: "Orden" },
      ]);
      const deliveries = await database.rows<{ recipient: string; match_key: string }>(
        sql`select recipient, match_key from deliveries order by recipient, match_key`,
      );
      expect(deliveries).toEqual([
        { recipient: "w-a", match_key: "webhook:d1" },
        { recipient: "w-c", match_key: "webhook:d2" },
      ]);
      // BOE stays unique by (source, source_id); org B's feed may now store its own g-1.
      await expect(
        database.rows(sql`insert into documents (source, source_id, title, language, published_on, official_url, record, content_hash)
          values ('boe', 'BOE-A-2026-1', 'x', 'es', '2026-11-20', 'https://x', '{}'::jsonb, 'h3')`),
      ).rejects.toThrow();
      await database.rows(sql`insert into documents (source, source_id, feed_id, title, language, published_on, official_url, record, content_hash)
        values ('feed', 'g-1', '00000000-0000-4000-8000-00000000000b', 'Entrada', 'es', '2026-11-20', '', '{}'::jsonb, 'h4')`);
    }, 120_000);
  });
}
