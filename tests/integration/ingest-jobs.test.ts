/** pg-boss ingestion jobs on PGlite (and PostgreSQL with TEST_DATABASE_URL): "run now" ingests a day; INGEST_SOURCES=none stays off. */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { backfillProgress } from "../../app/.server/sources/admin.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { givenUpDocument } from "../../app/.server/sources/errors.ts";
import { createJobs, madridDate } from "../../app/.server/sources/jobs.ts";
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

const sources = (ingest: ("boe" | "eurlex")[], since?: string) => ({
  boeApiUrl: "",
  eurlexUrl: "",
  cellarSparqlUrl: "",
  cellarUrl: "",
  ingest,
  since,
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

    it("backfills the past days since INGEST_SINCE after today, counting each day and logging the days left", async () => {
      const since = new Date(`${madridDate()}T12:00:00Z`);
      since.setUTCDate(since.getUTCDate() - 2);
      const lines: string[] = [];
      const log = { ...silent, info: (_obj: object, msg?: string) => void lines.push(msg ?? "") };
      const jobs = createJobs({
        database,
        config: { siteUrl: "http://localhost", sources: sources(["boe"], since.toISOString().slice(0, 10)) },
        log,
        clients: createSourceClients({
          urls: {
            boeApiUrl: replay.url,
            eurlexUrl: replay.url,
            cellarUrl: replay.url,
            cellarSparqlUrl: replay.sparqlUrl,
          },
          siteUrl: "http://localhost",
          perSecond: 1000,
        }),
      });
      await jobs.start();
      try {
        // Today first (decision 0074); its run then queues the two past days: the backfill.
        const deadline = Date.now() + 60_000;
        let progress = await backfillProgress(database.db);
        while (Date.now() < deadline && !progress?.finishedAt) {
          await new Promise((r) => setTimeout(r, 250));
          progress = await backfillProgress(database.db);
        }
        expect(lines).toContain("backfill started");
        expect(progress).toMatchObject({ daysTotal: 2, daysDone: 2, daysFailed: 0, documents: 0 });
        expect(progress?.finishedAt).toBeInstanceOf(Date);
        expect(lines).toContain("backfill finished");
        expect(lines.filter((line) => /^backfill \d\/2 days$/.test(line))).toHaveLength(1);
      } finally {
        await jobs.stop();
      }
    }, 120_000);

    it("retries a failed document on its own backoff, not at the next poll, and gives one up with its reason", async () => {
      const today = madridDate();
      replay.publish({ date: today, from: "2024-01-02" });
      // One document recovers after 3 failures (the run's 2 attempts and the retry's first),
      // another never does.
      replay.setFaults([
        { pattern: /id=BOE-A-2024-101$/, kind: "status", status: 500, times: 3 },
        { pattern: /id=BOE-A-2024-102$/, kind: "status", status: 500 },
      ]);
      const mark = replay.log.length;
      const jobs = createJobs({
        database,
        config: {
          siteUrl: "http://localhost",
          sources: {
            ...sources(["boe"]),
            documentRetry: { firstSeconds: 1, limit: 2, delaySeconds: 1, maxDelaySeconds: 2 },
          } as Parameters<typeof createJobs>[0]["config"]["sources"],
        },
        log: silent,
        clients: createSourceClients({
          urls: {
            boeApiUrl: replay.url,
            eurlexUrl: replay.url,
            cellarUrl: replay.url,
            cellarSparqlUrl: replay.sparqlUrl,
          },
          siteUrl: "http://localhost",
          perSecond: 1000,
          retries: 1,
          backoffMs: 50,
        }),
      });
      await jobs.start();
      try {
        const statusOf = async (id: string) =>
          (await database.rows<{ n: number }>(sql`select count(*)::int as n from documents where source_id = ${id}`))[0]
            ?.n;
        const givenUp = async () =>
          (
            await database.rows<{ last_error: string }>(sql`select last_error from source_status where source = 'boe'`)
          )[0]?.last_error ?? "";
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline && !((await statusOf("BOE-A-2024-101")) === 1 && /given up/.test(await givenUp())))
          await new Promise((r) => setTimeout(r, 250));
        expect(await statusOf("BOE-A-2024-101")).toBe(1);
        expect(await statusOf("BOE-A-2024-102")).toBe(0);
        const log = replay.log.slice(mark);
        // No poll fetched the day again: today's summary was fetched once (a scheduled check in between
        // would be conditional, answered 304), the documents were retried on their own.
        expect(log.filter((r) => r.path.includes("/sumario/") && !r.conditional).length).toBe(1);
        expect(log.filter((r) => r.path.endsWith("BOE-A-2024-101")).map((r) => r.status)).toEqual([500, 500, 500, 200]);
        // The run's 2 attempts, then 3 retries of 2 attempts each: given up, the reason recorded for the Sources page.
        expect(log.filter((r) => r.path.endsWith("BOE-A-2024-102"))).toHaveLength(8);
        const reason = await givenUp();
        expect(reason).toMatch(/^BOE-A-2024-102: given up after 3 retries: HTTP 500/);
        expect(givenUpDocument(reason)).toEqual({ document: "BOE-A-2024-102", retries: 3 });
      } finally {
        await jobs.stop();
        replay.setFaults([]);
        // Today unpublished again for the next tests on this replay (the other database's).
        replay.publish({ date: today, from: "2024-01-02", at: Date.now() + 86_400_000 });
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
