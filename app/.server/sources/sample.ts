/**
 * Sample data: ingests the recorded BOE days and EUR-Lex acts of the replay fixtures
 * in-process (a loopback replay server, no network) and marks them sample=true; re-running it
 * adds nothing. Their provenance names the official URL each recording came from, marked
 * sample, and the sources' live status (Sources page) is left as it was: nothing was reached. `npm run platform -- ingest --sample` calls loadSampleData; the running server
 * loads it in the background through createSampleLoader (the setup page's box, the Sources
 * page's button), one load at a time across instances (a claim in source_fetches).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { recordAudit } from "../audit/record.ts";
import type { AuditEventInput } from "../audit/types.ts";
import type { Database } from "../db/client.ts";
import type { Classify } from "../documents/store.ts";
import { BOE_OFFICIAL_URL } from "./boe/config.ts";
import { createSourceClients } from "./clients.ts";
import { EURLEX_OFFICIAL_URLS } from "./eurlex/config.ts";
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
  /** Checked between days: an aborted load stops after the day it is on (shutdown). */
  signal?: AbortSignal | undefined;
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
      // Provenance names the official URLs the recordings came from, marked sample (not the loopback replay).
      recordedFrom: { boeApiUrl: BOE_OFFICIAL_URL, ...EURLEX_OFFICIAL_URLS },
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
    for (const day of days) {
      options.signal?.throwIfAborted();
      results.push(await ingestBoeDay(deps, day));
    }
    options.signal?.throwIfAborted();
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

export type SampleStatus = "none" | "loading" | "loaded";

export interface SampleLoader {
  /** Starts the load in the background; false when it is loading (here or on another instance) or loaded. */
  start(): Promise<boolean>;
  status(): Promise<SampleStatus>;
  /** Shutdown: the load stops after the day it is on, and its claim is released. */
  stop(): Promise<void>;
}

const claimKey = "sample:load";
/** A claim older than this without done_at is from an instance that died while loading. */
const staleMinutes = 30;

export function createSampleLoader(
  options: Omit<SampleOptions, "signal" | "onProgress"> & { onProgress?: SampleOptions["onProgress"] },
): SampleLoader {
  const { database, log } = options;
  let running: Promise<void> | undefined;
  let controller: AbortController | undefined;
  let stopped = false;

  const anySample = async () =>
    (await database.rows<{ one: number }>(sql`select 1 as one from documents where sample limit 1`)).length > 0;
  const claim = async () =>
    (
      await database.rows<{ key: string }>(sql`
        insert into source_fetches (key, claimed_at) values (${claimKey}, now())
        on conflict (key) do update set claimed_at = now(), done_at = null
          where source_fetches.done_at is null
            and source_fetches.claimed_at < now() - make_interval(mins => ${staleMinutes})
        returning key`)
    ).length > 0;
  /** A load cut short (shutdown, failure): its claim is left stale, so the load is "none" and can start again. */
  const release = () =>
    database.rows(
      sql`update source_fetches set claimed_at = 'epoch'::timestamptz where key = ${claimKey} and done_at is null`,
    );
  const claimState = async () =>
    (
      await database.rows<{ done: boolean; fresh: boolean }>(sql`
        select done_at is not null as done,
          claimed_at >= now() - make_interval(mins => ${staleMinutes}) as fresh
        from source_fetches where key = ${claimKey}`)
    )[0];
  /** Loaded by this server (a finished claim), or by `ingest --sample` (sample documents and no claim). */
  const status = async (): Promise<SampleStatus> => {
    if (running) return "loading";
    const row = await claimState();
    if (row) return row.done ? "loaded" : row.fresh ? "loading" : "none";
    return (await anySample()) ? "loaded" : "none";
  };
  const markDone = () => database.rows(sql`update source_fetches set done_at = now() where key = ${claimKey}`);

  const run = async (signal: AbortSignal) => {
    try {
      log.info({ days: sampleDays(options.root).length }, "sample data: loading");
      const result = await loadSampleData({ ...options, signal });
      await markDone();
      log.info({ created: result.created, failed: result.failed }, "sample data: loaded");
    } catch (error) {
      if (signal.aborted) log.warn({}, "sample data: load stopped by shutdown; it can be started again");
      else log.error({ err: error }, "sample data: load failed");
      await release().catch(() => {});
    }
  };

  return {
    async start() {
      if (stopped || running) return false;
      if ((await status()) !== "none") return false;
      if (!(await claim())) return false;
      controller = new AbortController();
      const signal = controller.signal;
      running = run(signal).finally(() => {
        running = undefined;
      });
      return true;
    },
    status,
    async stop() {
      stopped = true;
      controller?.abort();
      await running;
    },
  };
}

/**
 * An admin's request for the sample (setup page, Sources page): the load is started in the
 * background unless it is loading or loaded, and `source.sample_requested` is recorded with
 * the actor and whether this request started it.
 */
export async function requestSampleLoad(
  database: Database,
  loader: Pick<SampleLoader, "start">,
  audit: Omit<AuditEventInput, "action" | "object" | "detail">,
  via: "setup" | "sources_page",
): Promise<boolean> {
  const started = await loader.start();
  await database.db.transaction((tx) =>
    recordAudit(tx, {
      ...audit,
      action: "source.sample_requested",
      object: { type: "source", id: "sample" },
      detail: { via, started },
    }),
  );
  return started;
}

/** The organisation and owner that setup just created (by the owner's e-mail), for the audit of the setup's choices. */
export async function setupOwner(
  database: Database,
  email: string,
): Promise<{ organizationId: string; actor: { id: string; email: string } } | null> {
  const [row] = await database.rows<{ organization_id: string; user_id: string; email: string }>(sql`
    select m.organization_id, u.id as user_id, u.email from auth_member m join auth_user u on u.id = m.user_id
    where lower(u.email) = ${email.trim().toLowerCase()} and m.role = 'owner' limit 1`);
  return row ? { organizationId: row.organization_id, actor: { id: row.user_id, email: row.email } } : null;
}
