/**
 * Classification at ingestion (issue 12, done-when): every document ingested from the
 * recorded sources through the replay server, with classify() as the store's hook, has
 * areas with reasons, a jurisdiction, a kind, a relevance and the classifier's version.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifierVersion, classify } from "../../app/.server/classify/classify.ts";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { ingestBoeDay, ingestEurlex } from "../../app/.server/sources/ingest.ts";
import { DEFAULT_REPLAY_ROOT, type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { isAreaId, isJurisdictionId, isKindId, isRelevanceId } from "../../app/lib/taxonomy.ts";

const expected = JSON.parse(readFileSync(path.join(DEFAULT_REPLAY_ROOT, "expected.json"), "utf8")) as {
  boe: Record<string, string[]>;
  eurlex: string[];
};
const silent = { info() {}, warn() {}, error() {} };
const iso = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;

let replay: ReplayServer;
let database: Database;
beforeAll(async () => {
  replay = await startReplayServer();
  database = await openDatabase({ databaseUrl: undefined });
  await migrate(database, defaultMigrationsDir);
}, 120_000);
afterAll(async () => {
  await database?.close();
  await replay?.close();
});

describe("classification at ingestion (PGlite)", () => {
  it("labels every recorded document with areas and reasons, jurisdiction, kind and relevance", async () => {
    const clients = createSourceClients({
      urls: { boeApiUrl: replay.url, eurlexUrl: replay.url, cellarUrl: replay.url, cellarSparqlUrl: replay.sparqlUrl },
      siteUrl: "http://localhost:3000",
      perSecond: 10_000,
      timeoutMs: 5000,
      retries: 2,
      backoffMs: 20,
    });
    const deps = {
      database,
      clients,
      log: silent,
      concurrency: 4,
      classify: (doc: Parameters<typeof classify>[0]) => classify(doc),
    };
    for (const day of Object.keys(expected.boe)) await ingestBoeDay(deps, iso(day));
    await ingestEurlex(deps);

    const rows = await database.rows<{
      source_id: string;
      areas: { id: string; reasons: string[] }[] | null;
      jurisdiction: string | null;
      kind: string | null;
      relevance: string | null;
      classifier_version: string | null;
    }>(sql`select source_id, areas, jurisdiction, kind, relevance, classifier_version from documents`);
    const total = Object.values(expected.boe).reduce((n, ids) => n + ids.length, 0) + expected.eurlex.length;
    expect(rows.length).toBe(total);
    for (const row of rows) {
      expect(row.areas?.length, row.source_id).toBeGreaterThanOrEqual(1);
      for (const area of row.areas ?? []) {
        expect(isAreaId(area.id), `${row.source_id} ${area.id}`).toBe(true);
        expect(area.reasons.length, `${row.source_id} ${area.id}`).toBeGreaterThan(0);
      }
      expect(isJurisdictionId(row.jurisdiction ?? ""), row.source_id).toBe(true);
      expect(isKindId(row.kind ?? ""), row.source_id).toBe(true);
      expect(isRelevanceId(row.relevance ?? ""), row.source_id).toBe(true);
      expect(row.classifier_version).toBe(classifierVersion());
    }
    const procurement = rows.filter((r) => r.areas?.some((a) => a.id === "procurement"));
    expect(procurement.length).toBeGreaterThan(200);
    expect(rows.find((r) => r.source_id === "32016R0679")).toMatchObject({
      jurisdiction: "EU",
      kind: "regulation",
      relevance: "high",
    });
  }, 300_000);
});
