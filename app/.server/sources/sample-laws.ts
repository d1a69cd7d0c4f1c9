/**
 * The sample's consolidated laws (issue 39): the recorded BOE laws and EU consolidated versions of
 * the fixtures read through the law sources' own code (consolidated/poll.ts, eu-consolidated/sync.ts)
 * from the loopback replay, and the law catalogue from the replay's lists. One law, the sample law,
 * is first read as it stood before its last recorded amendment and then as recorded, so that its
 * last amendment is a real law change (recorded wording, recorded dates) that the sample follow hears
 * about. Provenance names the official addresses the recordings came from, as for the documents.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { lawBlocks, lawChanges, laws } from "../db/schema.ts";
import { BOE_OFFICIAL_URL } from "./boe/config.ts";
import { syncCatalogue } from "./catalogue/sync.ts";
import { pollAndAlert } from "./consolidated/alerting.ts";
import { pollConsolidated } from "./consolidated/poll.ts";
import { splitConsolidatedCelex } from "./eu-consolidated/parse.ts";
import { syncEuLaw } from "./eu-consolidated/sync.ts";
import { EURLEX_OFFICIAL_URLS } from "./eurlex/config.ts";
import { createSourceHttp, type SourceHttp } from "./http.ts";
import type { IngestLog } from "./ingest.ts";
import { type LawAlerts, noLawAlerts } from "./plugin.ts";
import type { ReplayServer } from "./replay.ts";

/**
 * The law the sample follows for an organisation: the Ley Orgánica de Protección de Datos
 * (LOPDGDD), its articles 23 (a2-5) and 24 (a2-6). Article 23 was last reworded by
 * BOE-A-2025-26698 (published 2025-12-27): the sample reads the law as it stood the day before,
 * then as recorded, which records that rewording as a law change.
 */
export const SAMPLE_LAW = {
  id: "BOE-A-2018-16673",
  blocks: ["a2-5", "a2-6"],
  before: "2025-12-26",
} as const;

const LAWS_DIR = "boe/datosabiertos/api/legislacion-consolidada/id";

/** The recorded laws with text: BOE ids (a recorded whole law with blocks) and EU acts (consolidated versions). */
export function recordedLaws(root: string): { boe: string[]; eu: string[] } {
  const boeDir = path.join(root, LAWS_DIR);
  const boe = existsSync(boeDir)
    ? readdirSync(boeDir)
        .filter((name) => /^BOE-A-\d{4}-\d+$/.test(name) && existsSync(path.join(boeDir, name, "texto", "bloque")))
        .sort()
    : [];
  const celexDir = path.join(root, "cellar/resource/celex");
  const eu = existsSync(celexDir)
    ? [
        ...new Set(
          readdirSync(celexDir)
            .map((file) => splitConsolidatedCelex(file.replace(/\.xhtml$/, ""))?.actCelex)
            .filter((celex): celex is string => Boolean(celex)),
        ),
      ].sort()
    : [];
  return { boe, eu };
}

/** A client on the replay whose payloads name the official address they were recorded from (provenance). */
function recordedHttp(replayUrl: string, officialUrl: string, source: string): SourceHttp {
  const http = createSourceHttp({
    userAgent: "VigiaNormativo/sample",
    source,
    perSecond: 1000,
    // A loopback replay: a slow answer is a busy process (a whole law is megabytes), never a remote host.
    timeoutMs: 120_000,
    retries: 2,
    backoffMs: 50,
  });
  return {
    async request(url, init) {
      const payload = await http.request(url, init);
      return payload.url.startsWith(replayUrl)
        ? { ...payload, url: officialUrl + payload.url.slice(replayUrl.length) }
        : payload;
    },
  };
}

export interface SampleLawsResult {
  laws: number;
  /** The sample law's recorded changes (law_changes ids), matched against its follows. */
  changeIds: string[];
}

/** Laws of the sample with their text held (the Sources page's count). */
export async function sampleLawsHeld(database: Database, root: string): Promise<number> {
  const { boe, eu } = recordedLaws(root);
  const ids = [...boe, ...eu];
  if (ids.length === 0) return 0;
  const [row] = await database.db
    .select({ n: sql<number>`count(distinct ${lawBlocks.lawId})::int` })
    .from(lawBlocks)
    .where(inArray(lawBlocks.lawId, ids));
  return Number(row?.n ?? 0);
}

/** The sample law's consolidated changes, oldest first. */
export async function sampleLawChanges(database: Database): Promise<string[]> {
  const rows = await database.db
    .select({ id: lawChanges.id })
    .from(lawChanges)
    .where(and(eq(lawChanges.lawId, SAMPLE_LAW.id), eq(lawChanges.kind, "consolidated")))
    .orderBy(lawChanges.createdAt);
  return rows.map((row) => row.id);
}

/**
 * Reads the recorded laws into the law tables and the catalogue. Idempotent: a law already read is
 * unchanged (nothing recorded, nobody alerted); the sample law's staged reading happens only while
 * its text is not held.
 */
export async function loadSampleLaws(deps: {
  database: Database;
  replay: ReplayServer;
  root: string;
  log: IngestLog;
  lawAlerts?: LawAlerts | undefined;
  signal?: AbortSignal | undefined;
}): Promise<SampleLawsResult> {
  const { database, replay, log } = deps;
  const boeHttp = recordedHttp(replay.url, BOE_OFFICIAL_URL, "boe");
  const cellarHttp = recordedHttp(replay.url, EURLEX_OFFICIAL_URLS.cellarUrl, "cellar");
  const sparqlHttp = recordedHttp(replay.sparqlUrl, EURLEX_OFFICIAL_URLS.cellarSparqlUrl, "cellar");
  const { boe, eu } = recordedLaws(deps.root);

  // The catalogue from the replay's lists (every recorded law and act), so that laws are found by name offline.
  await syncCatalogue({
    database,
    boeHttp,
    cellarHttp: sparqlHttp,
    boeApiUrl: replay.url,
    cellarSparqlUrl: replay.sparqlUrl,
    log,
  });
  deps.signal?.throwIfAborted();

  if (boe.length > 0) {
    await database.db
      .insert(laws)
      .values(boe.map((id) => ({ id, source: "boe" as const, title: id })))
      .onConflictDoNothing();
    const consolidated = { database, http: boeHttp, baseUrl: replay.url, log };
    // Each law checked by itself (the change list is dated by the recording, not by the staged day).
    replay.setLawChangeList(false);
    try {
      const [held] = await database.db.select({ n: count() }).from(lawBlocks).where(eq(lawBlocks.lawId, SAMPLE_LAW.id));
      if (boe.includes(SAMPLE_LAW.id) && Number(held?.n ?? 0) === 0) {
        replay.setLawDate(SAMPLE_LAW.before, SAMPLE_LAW.id);
        await pollConsolidated(consolidated, { only: [SAMPLE_LAW.id] });
        replay.setLawDate(null, SAMPLE_LAW.id);
      }
      deps.signal?.throwIfAborted();
      const lawAlerts: LawAlerts = deps.lawAlerts ?? noLawAlerts;
      await pollAndAlert({ ...consolidated, lawAlerts }, { only: boe });
    } finally {
      replay.setLawChangeList(true);
    }
  }
  for (const act of eu) {
    deps.signal?.throwIfAborted();
    try {
      await syncEuLaw(
        database,
        { request: (url, init) => (url === replay.sparqlUrl ? sparqlHttp : cellarHttp).request(url, init) },
        { cellarSparqlUrl: replay.sparqlUrl, cellarUrl: replay.url },
        act,
      );
    } catch (error) {
      log.warn({ law: act, err: (error as Error).message }, "sample: EU consolidated versions not read");
    }
  }
  return { laws: await sampleLawsHeld(database, deps.root), changeIds: await sampleLawChanges(database) };
}
