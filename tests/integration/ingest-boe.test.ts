/**
 * Ingestion against the replay server, on PGlite and (with TEST_DATABASE_URL) PostgreSQL:
 * every recorded day ingests completely, a second run adds nothing, a changed payload makes
 * a new version, two instances racing store each document once, and each fault is recorded.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { type IngestDeps, ingestBoeDay, ingestEurlex } from "../../app/.server/sources/ingest.ts";
import { DEFAULT_REPLAY_ROOT, type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { databaseTargets } from "../support/postgres.ts";

const expected = JSON.parse(readFileSync(path.join(DEFAULT_REPLAY_ROOT, "expected.json"), "utf8")) as {
  boe: Record<string, string[]>;
  eurlex: string[];
};
const silent = { info() {}, warn() {}, error() {} };
const iso = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.close();
});

function deps(database: Database, extra: Partial<IngestDeps> = {}): IngestDeps {
  const clients = createSourceClients({
    urls: { boeApiUrl: replay.url, eurlexUrl: replay.url, cellarUrl: replay.url, cellarSparqlUrl: replay.sparqlUrl },
    siteUrl: "http://localhost:3000",
    perSecond: 10_000,
    timeoutMs: 1500,
    retries: 2,
    backoffMs: 20,
  });
  return { database, clients, log: silent, concurrency: 4, ...extra };
}

const count = async (database: Database, table: string, where = sql`true`) =>
  Number(
    (await database.rows<{ n: string }>(sql`select count(*)::text as n from ${sql.raw(table)} where ${where}`))[0]?.n,
  );

for (const target of databaseTargets()) {
  describe(`ingestion on ${target.name}`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase({ databaseUrl: await target.create() });
      await migrate(database, defaultMigrationsDir);
    }, 120_000);
    afterAll(async () => {
      await database?.close();
      await target.cleanup();
    });

    it("ingests every recorded BOE day completely, and a second run adds nothing", async () => {
      for (const [day, ids] of Object.entries(expected.boe)) {
        const result = await ingestBoeDay(deps(database), iso(day));
        expect(result.failed, day).toEqual([]);
        expect(result.created + result.unchanged, day).toBe(ids.length);
        const stored = await database.rows<{ source_id: string }>(
          sql`select source_id from documents where source = 'boe' and published_on = ${iso(day)}`,
        );
        expect(stored.map((r) => r.source_id).sort(), day).toEqual([...ids].sort());
      }
      const total = await count(database, "documents");
      const again = await ingestBoeDay(deps(database), "2018-12-06");
      expect(again.created).toBe(0);
      expect(again.unchanged).toBe(expected.boe["20181206"]?.length);
      expect(await count(database, "documents")).toBe(total);
      const [provenance] = await database.rows<{ url: string; sha256: string; parser: string }>(
        sql`select p.url, p.sha256, p.parser from document_provenance p join documents d on d.id = p.document_id
            where d.source_id = 'BOE-A-2018-16673' and p.parser = 'boe-document@1' limit 1`,
      );
      expect(provenance?.url).toBe(`${replay.url}/diario_boe/xml.php?id=BOE-A-2018-16673`);
      expect(provenance?.sha256).toMatch(/^[0-9a-f]{64}$/);
    }, 300_000);

    it("ingests the EUR-Lex feed's acts", async () => {
      const result = await ingestEurlex(deps(database));
      expect(result.failed).toEqual([]);
      const stored = await database.rows<{ source_id: string; effective_dates: string[] }>(
        sql`select source_id, effective_dates from documents where source = 'eurlex'`,
      );
      expect(stored.map((r) => r.source_id).sort()).toEqual([...expected.eurlex].sort());
      expect(stored.find((r) => r.source_id === "32016R0679")?.effective_dates).toEqual(["2016-05-24", "2018-05-25"]);
    }, 120_000);

    it("a changed payload makes a new version", async () => {
      const id = "BOE-A-2018-16690";
      const original = readFileSync(path.join(DEFAULT_REPLAY_ROOT, `boe/diario_boe/xml.php/${id}.xml`), "utf8");
      replay.setFaults([
        {
          pattern: new RegExp(`xml\\.php\\?id=${id}$`),
          kind: "body",
          body: original.replace("</texto>", '<p class="parrafo">Corrección añadida.</p></texto>'),
        },
      ]);
      try {
        const result = await ingestBoeDay(deps(database), "2018-12-06");
        expect(result.updated).toBe(1);
      } finally {
        replay.setFaults([]);
      }
      const [row] = await database.rows<{ version: number; versions: string }>(
        sql`select d.version, (select count(*)::text from document_versions v where v.document_id = d.id) as versions
            from documents d where d.source_id = ${id}`,
      );
      expect(row).toEqual({ version: 2, versions: "2" });
    }, 120_000);

    it("records each fault with its URL and ingests the rest of the day", async () => {
      const day = "20240102";
      const ids = expected.boe[day] ?? [];
      await database.rows(sql`delete from documents where published_on = ${iso(day)}`);
      const [hang, fiveHundred, malformed, missing] = ids.slice(1, 5) as [string, string, string, string];
      replay.setFaults([
        { pattern: new RegExp(`id=${hang}$`), kind: "hang" },
        { pattern: new RegExp(`id=${fiveHundred}$`), kind: "status", status: 503 },
        { pattern: new RegExp(`id=${malformed}$`), kind: "malformed" },
        { pattern: new RegExp(`id=${missing}$`), kind: "status", status: 404 },
      ]);
      const before = replay.requests.filter((r) => r.endsWith(`id=${fiveHundred}`)).length;
      let result: Awaited<ReturnType<typeof ingestBoeDay>>;
      try {
        result = await ingestBoeDay(deps(database), iso(day));
      } finally {
        replay.setFaults([]);
      }
      const failed = Object.fromEntries(result.failed.map((f) => [f.sourceId, f]));
      expect(Object.keys(failed).sort()).toEqual([hang, fiveHundred, malformed, missing].sort());
      expect(failed[hang]?.error).toMatch(/timed out/);
      expect(failed[fiveHundred]?.error).toMatch(/HTTP 503/);
      expect(failed[malformed]?.error).toMatch(/malformed XML/);
      expect(failed[missing]?.error).toMatch(/HTTP 404/);
      expect(failed[missing]?.url).toBe(`${replay.url}/diario_boe/xml.php?id=${missing}`);
      // 5xx was retried before being recorded.
      expect(replay.requests.filter((r) => r.endsWith(`id=${fiveHundred}`)).length - before).toBe(3);
      expect(result.created).toBe(ids.length - 4);
      const [status] = await database.rows<{
        last_error: string;
        last_error_url: string;
        last_success_at: Date | null;
      }>(sql`select last_error, last_error_url, last_success_at from source_status where source = 'boe'`);
      expect(status?.last_error_url).toMatch(/diario_boe\/xml\.php\?id=BOE-/);
      expect(status?.last_success_at).not.toBeNull();
    }, 120_000);

    it("a summary listing an item twice stores it once and records it", async () => {
      const file = readFileSync(
        path.join(DEFAULT_REPLAY_ROOT, "boe/datosabiertos/api/boe/sumario/20181206.json"),
        "utf8",
      );
      const doubled = file.replace(
        '"epigrafe": [',
        '"epigrafe": [{"nombre": "Repetido", "item": {"identificador": "BOE-A-2018-16672", "titulo": "Ley Orgánica 2/2018", "url_xml": "https://www.boe.es/diario_boe/xml.php?id=BOE-A-2018-16672"}},',
      );
      expect(doubled).not.toBe(file);
      replay.setFaults([{ pattern: /sumario\/20181206$/, kind: "body", body: doubled }]);
      try {
        const result = await ingestBoeDay(deps(database), "2018-12-06");
        expect(result.duplicates).toEqual(["BOE-A-2018-16672"]);
      } finally {
        replay.setFaults([]);
      }
      expect(await count(database, "documents", sql`source_id = 'BOE-A-2018-16672'`)).toBe(1);
      const [status] = await database.rows<{ last_error: string }>(
        sql`select last_error from source_status where source = 'boe'`,
      );
      expect(status?.last_error).toMatch(/BOE-A-2018-16672 more than once/);
    }, 120_000);

    it("no issue that day is not a failure; a broken summary is recorded", async () => {
      const none = await ingestBoeDay(deps(database), "2018-12-09");
      expect(none.noIssue).toBe(true);
      replay.setFaults([{ pattern: /sumario\/20181206$/, kind: "malformed" }]);
      try {
        await expect(ingestBoeDay(deps(database), "2018-12-06")).rejects.toThrow(/malformed JSON/);
      } finally {
        replay.setFaults([]);
      }
      const [status] = await database.rows<{ last_error_url: string }>(
        sql`select last_error_url from source_status where source = 'boe'`,
      );
      expect(status?.last_error_url).toMatch(/sumario\/20181206$/);
    }, 60_000);
  });
}

const postgres = databaseTargets().find((t) => t.name === "postgres");
describe.skipIf(!postgres)("two instances racing on PostgreSQL", () => {
  it("store each document of the day once", async () => {
    const url = await postgres?.create();
    const a = await openDatabase({ databaseUrl: url });
    const b = await openDatabase({ databaseUrl: url });
    try {
      await Promise.all([migrate(a, defaultMigrationsDir), migrate(b, defaultMigrationsDir)]);
      const [ra, rb] = await Promise.all([ingestBoeDay(deps(a), "2026-04-08"), ingestBoeDay(deps(b), "2026-04-08")]);
      const ids = expected.boe["20260408"] ?? [];
      expect(ra.created + rb.created).toBe(ids.length);
      expect(ra.failed.concat(rb.failed)).toEqual([]);
      expect(await count(a, "documents")).toBe(ids.length);
      expect(await count(a, "document_versions")).toBe(ids.length);
    } finally {
      await a.close();
      await b.close();
      await postgres?.cleanup();
    }
  }, 180_000);
});
