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
import { madridDate } from "../../lib/madrid-date.ts";
import { recordAudit } from "../audit/record.ts";
import type { AuditEventInput } from "../audit/types.ts";
import type { Database } from "../db/client.ts";
import type { Classify } from "../documents/store.ts";
import type { SourceDocument } from "../documents/types.ts";
import { BOE_OFFICIAL_URL } from "./boe/config.ts";
import { createSourceClients } from "./clients.ts";
import { EURLEX_OFFICIAL_URLS } from "./eurlex/config.ts";
import { type IngestLog, type IngestProgress, type IngestResult, ingestBoeDay, ingestEurlex } from "./ingest.ts";
import type { LawAlerts } from "./plugin.ts";
import { DEFAULT_REPLAY_ROOT, startReplayServer } from "./replay.ts";
import { loadSampleLaws, sampleLawsHeld } from "./sample-laws.ts";
import {
  matchSample,
  organisationHasSample,
  type SampleMatching,
  type SampleRequester,
  sampleAlertsOf,
  seedSampleOrganisation,
} from "./sample-org.ts";

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
  /** The laws capability: the sample law's recorded change alerts its followers (sample-laws.ts). */
  lawAlerts?: LawAlerts | undefined;
  /** The clock (tests): the day the last recorded day is replayed as, the first time. */
  now?: (() => Date) | undefined;
}

export interface SampleResult {
  days: string[];
  /** The recorded day published again as `replayedAs` (YYYY-MM-DD each). */
  replayed: { from: string; as: string } | null;
  created: number;
  failed: number;
  results: IngestResult[];
  /** Consolidated laws of the sample whose text is held. */
  laws: number;
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

/** `iso` (YYYY-MM-DD) moved by `days`. */
export function shiftDay(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * A recorded document published again on `as`: its publication, adoption and entry-into-force
 * dates moved by the same number of days, and the recorded day kept (`replayedFrom`) so that every
 * page that shows it can say so.
 */
export function replayedAs(doc: SourceDocument, as: string): SourceDocument {
  const from = doc.replayedFrom ?? doc.publishedOn;
  const delta = daysBetween(from, as);
  const move = (iso: string) => (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? shiftDay(iso, delta) : iso);
  return {
    ...doc,
    publishedOn: as,
    ...(doc.adoptedOn ? { adoptedOn: move(doc.adoptedOn) } : {}),
    effectiveDates: doc.effectiveDates.map(move),
    replayedFrom: from,
  };
}

const replayKey = "sample:replay-day";

/**
 * The day the last recorded day is published as: the day of the first load (Europe/Madrid), kept
 * in source_fetches so that loading again (another day, another instance) changes nothing.
 */
async function replayDay(database: Database, now: Date): Promise<string> {
  await database.rows(sql`insert into source_fetches (key, claimed_at, done_at) values (${replayKey}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
    on conflict (key) do nothing`);
  const [row] = await database.rows<{ at: string | Date }>(
    sql`select claimed_at as at from source_fetches where key = ${replayKey}`,
  );
  return madridDate(new Date(row?.at ?? now));
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
    // The last recorded day is published again as today (issue 39): alerts and a triage queue on the first day.
    const last = days.at(-1);
    const as = last ? await replayDay(options.database, options.now?.() ?? new Date()) : undefined;
    for (const day of days) {
      options.signal?.throwIfAborted();
      const replayed = day === last && as;
      results.push(await ingestBoeDay(replayed ? { ...deps, adjust: (doc) => replayedAs(doc, as) } : deps, day));
    }
    options.signal?.throwIfAborted();
    results.push(await ingestEurlex(deps));
    options.signal?.throwIfAborted();
    const laws = await loadSampleLaws({
      database: options.database,
      replay,
      root,
      log: options.log,
      lawAlerts: options.lawAlerts,
      signal: options.signal,
    });
    return {
      days,
      replayed: last && as ? { from: last, as } : null,
      created: results.reduce((n, r) => n + r.created, 0),
      failed: results.reduce((n, r) => n + r.failed.length, 0),
      results,
      laws: laws.laws,
    };
  } finally {
    await replay.close();
  }
}

export type SampleStatus = "none" | "loading" | "loaded";

/** What a request for the sample did: started the load, joined one under way, or (loaded) seeded the organisation now. */
export type SampleStart = "started" | "loading" | "seeded" | "already";

export interface SampleLoader {
  /**
   * The sample for the requester's organisation (sample-org.ts): the load is started in the
   * background when nothing is loaded; while it loads, the organisation is seeded at its end; once
   * loaded, the organisation is seeded now. Without a requester (tests, tools), only the load.
   */
  start(requester?: SampleRequester): Promise<SampleStart>;
  status(): Promise<SampleStatus>;
  /** What the Sources page shows: the sample's documents and laws so far, and the organisation's alerts. */
  progress(organizationId: string): Promise<SampleProgress>;
  /** Shutdown: the load stops after the day it is on, and its claim is released. */
  stop(): Promise<void>;
}

export interface SampleProgress {
  documents: number;
  laws: number;
  alerts: number;
  /** The organisation has its sample follow (sample-org.ts). */
  seeded: boolean;
}

const claimKey = "sample:load";
/** A claim older than this without done_at is from an instance that died while loading. */
const staleMinutes = 30;

export function createSampleLoader(
  options: Omit<SampleOptions, "signal" | "onProgress"> & {
    onProgress?: SampleOptions["onProgress"];
    /** Matching now of the sample's law change and replayed documents (new follows and profiles). */
    matching?: SampleMatching | undefined;
    maxFollows?: number | undefined;
  },
): SampleLoader {
  const { database, log } = options;
  let running: Promise<void> | undefined;
  let controller: AbortController | undefined;
  let stopped = false;
  /** Organisations that asked while this instance loads: seeded again and matched at its end. */
  const waiting: SampleRequester[] = [];

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
  const seed = async (requester: SampleRequester) => {
    const made = await seedSampleOrganisation(database, requester, { maxFollows: options.maxFollows });
    if (options.matching) await matchSample(database, options.matching);
    return made;
  };

  const run = async (signal: AbortSignal) => {
    try {
      // The requesters' follow and profile first: the load's law change and documents then reach them as they come.
      for (const requester of waiting)
        await seedSampleOrganisation(database, requester, { maxFollows: options.maxFollows });
      log.info({ days: sampleDays(options.root).length }, "sample data: loading");
      const result = await loadSampleData({ ...options, signal });
      // Whatever the pipeline has not matched yet, and organisations that asked during the load.
      for (const requester of waiting.splice(0))
        await seedSampleOrganisation(database, requester, { maxFollows: options.maxFollows });
      if (options.matching) await matchSample(database, options.matching);
      await markDone();
      log.info(
        { created: result.created, failed: result.failed, laws: result.laws, replayed: result.replayed },
        "sample data: loaded",
      );
    } catch (error) {
      if (signal.aborted) log.warn({}, "sample data: load stopped by shutdown; it can be started again");
      else log.error({ err: error }, "sample data: load failed");
      await release().catch(() => {});
    }
  };

  return {
    async start(requester) {
      if (stopped) return "already";
      if (running) {
        if (requester) waiting.push(requester);
        return "loading";
      }
      const now = await status();
      if (now === "loaded" || now === "loading") {
        // Loaded (or loading on another instance): this organisation's part now.
        if (!requester) return now === "loading" ? "loading" : "already";
        const made = await seed(requester);
        return made.follow || made.profile ? "seeded" : "already";
      }
      if (!(await claim())) return "loading";
      if (requester) waiting.push(requester);
      controller = new AbortController();
      const signal = controller.signal;
      running = run(signal).finally(() => {
        running = undefined;
      });
      return "started";
    },
    status,
    async progress(organizationId) {
      const [row] = await database.rows<{ n: number }>(sql`select count(*)::int as n from documents where sample`);
      return {
        documents: Number(row?.n ?? 0),
        laws: await sampleLawsHeld(database, options.root ?? DEFAULT_REPLAY_ROOT),
        alerts: await sampleAlertsOf(database, organizationId),
        seeded: await organisationHasSample(database, organizationId),
      };
    },
    async stop() {
      stopped = true;
      controller?.abort();
      await running;
    },
  };
}

/**
 * An admin's request for the sample (setup page, Sources page): started in the background unless
 * it is loading or loaded, the admin's organisation seeded (sample-org.ts), and
 * `source.sample_requested` recorded with the actor, whether this request started the load, and
 * what it did (`detail.outcome`).
 */
export async function requestSampleLoad(
  database: Database,
  loader: Pick<SampleLoader, "start">,
  audit: Omit<AuditEventInput, "action" | "object" | "detail"> & { organizationId: string },
  via: "setup" | "sources_page",
  language: "es" | "en" = "es",
): Promise<SampleStart> {
  const requester: SampleRequester | undefined =
    audit.actor?.id && audit.actor.email
      ? {
          organizationId: audit.organizationId,
          userId: audit.actor.id,
          email: audit.actor.email,
          language,
          ip: audit.ip,
          userAgent: audit.userAgent,
        }
      : undefined;
  const outcome = await loader.start(requester);
  await database.db.transaction((tx) =>
    recordAudit(tx, {
      ...audit,
      action: "source.sample_requested",
      object: { type: "source", id: "sample" },
      detail: { via, started: outcome === "started", outcome },
    }),
  );
  return outcome;
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
