/**
 * Sample data: ingests the recorded BOE days and EUR-Lex acts of the replay fixtures
 * in-process (a loopback replay server, no network) and marks them sample=true. The setup
 * page calls loadSampleData; re-running it adds nothing.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Database } from "../db/client.ts";
import type { Classify } from "../documents/store.ts";
import { createSourceClients } from "./clients.ts";
import { type IngestLog, type IngestProgress, type IngestResult, ingestBoeDay, ingestEurlex } from "./ingest.ts";
import { DEFAULT_REPLAY_ROOT, startReplayServer } from "./replay.ts";

export interface SampleOptions {
  database: Database;
  log: IngestLog;
  classify?: Classify | undefined;
  onDocument?: ((documentId: string, isNew: boolean) => void | Promise<void>) | undefined;
  onProgress?: ((progress: IngestProgress) => void) | undefined;
  /** The fixtures folder; default fixtures/sources. */
  root?: string;
}

export interface SampleResult {
  days: string[];
  created: number;
  failed: number;
  results: IngestResult[];
}

/** The recorded BOE days (YYYY-MM-DD) listed in the fixtures' expected.json. */
export function sampleDays(root = DEFAULT_REPLAY_ROOT): string[] {
  const expected = JSON.parse(readFileSync(path.join(root, "expected.json"), "utf8")) as {
    boe: Record<string, unknown>;
  };
  return Object.keys(expected.boe)
    .filter((d) => /^\d{8}$/.test(d))
    .map((d) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`)
    .sort();
}

export async function loadSampleData(options: SampleOptions): Promise<SampleResult> {
  const root = options.root ?? DEFAULT_REPLAY_ROOT;
  const replay = await startReplayServer({ root });
  try {
    const clients = createSourceClients({
      urls: { boeApiUrl: replay.url, eurlexUrl: replay.url, cellarUrl: replay.url, cellarSparqlUrl: replay.sparqlUrl },
      siteUrl: "http://localhost",
      perSecond: 1000,
      timeoutMs: 10_000,
      retries: 1,
      backoffMs: 50,
    });
    const deps = {
      database: options.database,
      clients,
      log: options.log,
      classify: options.classify,
      onDocument: options.onDocument,
      onProgress: options.onProgress,
      sample: true,
      concurrency: 4,
    };
    const results: IngestResult[] = [];
    const days = sampleDays(root);
    for (const day of days) results.push(await ingestBoeDay(deps, day));
    results.push(await ingestEurlex(deps));
    return {
      days,
      created: results.reduce((n, r) => n + r.created, 0),
      failed: results.reduce((n, r) => n + r.failed.length, 0),
      results,
    };
  } finally {
    await replay.close();
  }
}
