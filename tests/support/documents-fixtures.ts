/** Recorded source payloads ingested (and classified) into a test database through the replay server. */
import { sql } from "drizzle-orm";
import { classify } from "../../app/.server/classify/classify.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { ingestBoeDay, ingestEurlex } from "../../app/.server/sources/ingest.ts";
import { startReplayServer } from "../../app/.server/sources/replay.ts";

const silent = { info() {}, warn() {}, error() {} };

/** Ingests these BOE days (YYYY-MM-DD) and the EUR-Lex feed; returns the stored ids by source id. */
export async function ingestRecorded(
  database: Database,
  days: readonly string[] = ["2018-12-06"],
  options: { eurlex?: boolean; sample?: boolean } = {},
): Promise<Map<string, string>> {
  const replay = await startReplayServer();
  const ids = new Map<string, string>();
  try {
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
      sample: options.sample ?? false,
      classify: (doc: Parameters<typeof classify>[0]) => classify(doc),
    };
    for (const day of days) await ingestBoeDay(deps, day);
    if (options.eurlex !== false) await ingestEurlex(deps);
  } finally {
    await replay.close();
  }
  const rows = await database.rows<{ id: string; source_id: string }>(sql`select id, source_id from documents`);
  for (const row of rows) ids.set(row.source_id, row.id);
  return ids;
}
