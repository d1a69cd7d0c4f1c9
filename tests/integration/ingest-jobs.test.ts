/** pg-boss ingestion jobs on PGlite (and PostgreSQL with TEST_DATABASE_URL): "run now" ingests a day; INGEST_SOURCES=none stays off. */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { createJobs } from "../../app/.server/jobs/ingest-jobs.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { databaseTargets } from "../support/postgres.ts";

const silent = { info() {}, warn() {}, error() {} };
let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay.close();
});

const sources = (ingest: ("boe" | "eurlex")[]) => ({
  boeApiUrl: "",
  eurlexUrl: "",
  cellarSparqlUrl: "",
  cellarUrl: "",
  ingest,
  since: undefined,
  intervalSeconds: 300,
});

for (const target of databaseTargets()) {
  describe(`ingestion jobs on ${target.name}`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase({ databaseUrl: await target.create() });
      await migrate(database, defaultMigrationsDir);
    }, 120_000);
    afterAll(async () => {
      await database?.close();
      await target.cleanup();
    });

    it("runs a source now through the queue", async () => {
      const clients = createSourceClients({
        urls: {
          boeApiUrl: replay.url,
          eurlexUrl: replay.url,
          cellarUrl: replay.url,
          cellarSparqlUrl: replay.sparqlUrl,
        },
        siteUrl: "http://localhost",
        perSecond: 1000,
      });
      const jobs = createJobs({
        database,
        config: { siteUrl: "http://localhost", sources: sources(["boe"]) },
        log: silent,
        clients,
      });
      await jobs.start();
      try {
        const id = await jobs.runSourceNow("boe", { date: "2018-12-06" });
        expect(id).toBeTruthy();
        const deadline = Date.now() + 60_000;
        let n = 0;
        while (Date.now() < deadline) {
          n = Number((await database.rows<{ n: string }>(sql`select count(*)::text as n from documents`))[0]?.n);
          if (n >= 55) break;
          await new Promise((r) => setTimeout(r, 500));
        }
        expect(n).toBe(55);
        await expect(jobs.runSourceNow("nonsense")).rejects.toThrow(/unknown source/);
      } finally {
        await jobs.stop();
      }
    }, 120_000);

    it("INGEST_SOURCES=none starts nothing", async () => {
      const jobs = createJobs({ database, config: { siteUrl: "http://localhost", sources: sources([]) }, log: silent });
      await jobs.start();
      expect(await jobs.runSourceNow("boe")).toBeNull();
      await jobs.stop();
    });
  });
}
