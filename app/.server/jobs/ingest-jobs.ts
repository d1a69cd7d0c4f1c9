/**
 * Ingestion jobs on the process's job kernel (kernel/kernel.ts: pg-boss 12 on PGlite and on
 * PostgreSQL across instances; a kernel of its own when none is given: tests, tools). Schedules in Europe/Madrid: BOE hourly, and in its publication
 * window (BOE_WATCH_WINDOW, default Monday to Saturday 07:00-10:00) today's summary is watched
 * every BOE_WATCH_SECONDS (default 30) with conditional requests: a summary still at the
 * version last ingested costs the source a 304 and nothing else (with the watch off, the
 * window's poll is every INGEST_INTERVAL_SECONDS, rounded to minutes, as before). EUR-Lex
 * every interval from 06:00 to 21:00, and so are the RSS/Atom feeds admins added (one job per
 * feed).
 * Today first: at start today's issue is ingested, then INGEST_SINCE's missing days are
 * queued, newest first, on their own queue (ingest-boe-backfill), so that no poll of today
 * waits behind a past day, and today's requests leave before the backfill's in the BOE's
 * lane of the instance's pacer (sources/pacing.ts: 2 requests per second per source across
 * the instance and, on PostgreSQL, across instances). A past day ingested without failures is
 * remembered (source_fetches `boe:day:{date}`) and not fetched again at the next start.
 * One fetch per day and per document across instances: singleton keys per day on the queue,
 * and per-document claims in source_fetches (see ingest.ts). INGEST_SOURCES=none: start()
 * does nothing. runSourceNow(sourceId) is the admin's "run now".
 */
import { sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { sourceFeeds } from "../db/schema/documents.ts";
import type { Classify } from "../documents/store.ts";
import { createKernel, type Kernel } from "../kernel/kernel.ts";
import { createSourceClients, type SourceClients, type SummaryVersion } from "../sources/clients.ts";
import { type IngestLog, type IngestResult, ingestBoeDay, ingestEurlex, ingestFeed } from "../sources/ingest.ts";
import { instancePacer } from "../sources/pacing.ts";
import {
  backfillDayDone,
  formatDuration,
  progressLogger,
  resizeBackfill,
  secondsLeft,
  startBackfill,
} from "../sources/progress.ts";

export const QUEUES = {
  boe: "ingest-boe",
  /** Past days (INGEST_SINCE), one job per day, after today's issue. */
  backfill: "ingest-boe-backfill",
  eurlex: "ingest-eurlex",
  feed: "ingest-feed",
  /** Fans out one ingest-feed job per admin-added feed (every interval during the day). */
  feeds: "ingest-feeds",
} as const;
const TZ = "Europe/Madrid";

export interface JobsOptions {
  database: Database;
  /** The watch is off when `sources.watch` is absent (tests that build a config by hand). */
  config: Pick<Config, "siteUrl"> & {
    sources: Omit<Config["sources"], "watch"> & { watch?: Config["sources"]["watch"] };
    alerts?: Pick<Config["alerts"], "allowPrivateWebhookUrls">;
  };
  log: IngestLog;
  /** The process's kernel (services.ts starts and stops it); absent: the jobs get one of their own. */
  kernel?: Kernel | undefined;
  classify?: Classify | undefined;
  onDocument?: ((documentId: string, isNew: boolean) => void | Promise<void>) | undefined;
  /** Tests: injected clients (e.g. pointed at a replay server with a high rate). */
  clients?: SourceClients;
}

export interface IngestJobs {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Queues an immediate run: "boe" (today or `date`), "eurlex", or a source_feeds id. Null when ingestion is off. */
  runSourceNow(sourceId: string, options?: { date?: string }): Promise<string | null>;
  /** Queues a run of every admin-added feed now (what the schedule does each interval); the number queued. */
  runFeedsNow(): Promise<number>;
}

export function madridDate(at = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: TZ }).format(at);
}

/** Days from `since` to `until` inclusive (YYYY-MM-DD), at most 366. */
export function daysBetween(since: string, until: string): string[] {
  const out: string[] = [];
  const d = new Date(`${since}T12:00:00Z`);
  const end = new Date(`${until}T12:00:00Z`);
  while (d <= end && out.length < 366) {
    out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/** Whether `at` falls in the watch window (Europe/Madrid weekday and time). */
export function inWatchWindow(
  watch: { days: readonly number[]; fromMinute: number; toMinute: number },
  at = new Date(),
): boolean {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: TZ,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(part("weekday"));
  const minute = Number(part("hour")) * 60 + Number(part("minute"));
  return watch.days.includes(day) && minute >= watch.fromMinute && minute < watch.toMinute;
}

interface BoeJob {
  date?: string;
  /** The watch: a conditional check of the summary, nothing more when it has not changed. */
  watch?: boolean;
  /** At start: queue the missing past days once this (today's) run is over. */
  backfill?: boolean;
}

export function createJobs(options: JobsOptions): IngestJobs {
  const { database, config, log } = options;
  const enabled = config.sources.ingest;
  const clients =
    options.clients ??
    createSourceClients({
      urls: config.sources,
      siteUrl: config.siteUrl,
      pacer: instancePacer(database, (error) => log.warn({ err: error }, "shared source pacing failed")),
      feedPolicy: { allowPrivate: config.alerts?.allowPrivateWebhookUrls ?? false },
    });
  const deps = (freshSeconds: number, urgent = false) => ({
    database,
    clients,
    log,
    classify: options.classify,
    onDocument: options.onDocument,
    freshSeconds,
    urgent,
    onProgress: progressLogger(log),
  });
  const watch = config.sources.watch ?? { seconds: 0, days: [], fromMinute: 0, toMinute: 0 };
  let watchTimer: NodeJS.Timeout | undefined;
  /** The summary version last ingested in full, per day (for conditional checks). */
  const versions = new Map<string, SummaryVersion>();
  const remember = (date: string, result: IngestResult) => {
    // No issue (any more): the next one that appears is ingested whatever its validators.
    if (result.noIssue) versions.delete(date);
    if (result.summaryVersion && result.failed.length === 0) {
      for (const key of versions.keys()) if (key !== date) versions.delete(key);
      versions.set(date, result.summaryVersion);
    }
  };
  const dayDoneKey = (date: string) => `boe:day:${date}`;
  const dayDone = async (date: string) =>
    (
      await database.rows<{ key: string }>(
        sql`select key from source_fetches where key = ${dayDoneKey(date)} and done_at is not null`,
      )
    ).length > 0;
  const markDayDone = (date: string) =>
    database.rows(sql`
      insert into source_fetches (key, claimed_at, done_at) values (${dayDoneKey(date)}, now(), now())
      on conflict (key) do update set done_at = now()`);
  /** A backfilled day is counted (Sources page) and logged with the days left and the time to go. */
  const countBackfillDay = async (date: string, ok: boolean, documents: number) => {
    const counts = await backfillDayDone(database, "boe", { ok, documents });
    if (!counts) return;
    const handled = counts.daysDone + counts.daysFailed;
    const left = secondsLeft(handled, counts.daysTotal, Date.now() - counts.startedAt.getTime());
    log.info(
      { source: "boe", date, ...counts, timeLeft: formatDuration(left) },
      handled >= counts.daysTotal ? "backfill finished" : `backfill ${handled}/${counts.daysTotal} days`,
    );
  };
  const ownKernel = !options.kernel;
  const kernel = options.kernel ?? createKernel({ database, log });
  const registered = enabled.length > 0;
  const minutes = Math.max(1, Math.round(config.sources.intervalSeconds / 60));
  const every = minutes >= 60 ? "0" : `*/${minutes}`;

  const dayKey = (date: string) => `boe:${date}`;
  /** The days from INGEST_SINCE to yesterday, newest first, one job each. */
  const queueBackfill = async (today: string) => {
    if (!config.sources.since) return;
    const missing: string[] = [];
    for (const date of daysBetween(config.sources.since, today)
      .filter((d) => d < today)
      .reverse()) {
      if (!(await dayDone(date))) missing.push(date);
    }
    await startBackfill(database, "boe", [...missing].reverse());
    if (missing.length > 0) {
      log.info({ source: "boe", days: missing.length, from: missing.at(-1), to: missing[0] }, "backfill started");
    }
    let queued = 0;
    for (const date of missing) {
      const id = await kernel.send(QUEUES.backfill, { date }, { singletonKey: dayKey(date), singletonSeconds: 3600 });
      if (id) queued++;
    }
    // Days already queued by an earlier start in the last hour are not queued twice.
    if (queued < missing.length) await resizeBackfill(database, "boe", queued);
  };
  /** In the window, every watch.seconds: one conditional check of today's summary across instances. */
  const startWatch = () => {
    const tick = async () => {
      if (!kernel.started) return;
      try {
        if (inWatchWindow(watch)) {
          const date = madridDate();
          await kernel.send(QUEUES.boe, { date, watch: true } satisfies BoeJob, {
            singletonKey: `boe:watch:${date}`,
            singletonSeconds: watch.seconds,
          });
        }
      } catch (error) {
        log.warn({ err: error }, "BOE watch could not queue a check");
      }
      if (kernel.started) watchTimer = setTimeout(tick, watch.seconds * 1000);
    };
    watchTimer = setTimeout(tick, 0);
  };
  const queueFeed = (feedId: string) =>
    kernel.send(QUEUES.feed, { feedId }, { singletonKey: `feed:${feedId}`, singletonSeconds: 30 });
  const queueAllFeeds = async () => {
    const feeds = await database.db.select({ id: sourceFeeds.id }).from(sourceFeeds);
    let queued = 0;
    for (const feed of feeds) if (await queueFeed(feed.id)) queued++;
    return queued;
  };

  if (registered) {
    kernel.queue<BoeJob>(QUEUES.boe, { pollingIntervalSeconds: 1 }, async (data) => {
      const today = madridDate();
      const date = data.date ?? today;
      try {
        const fresh = data.date && !data.watch ? 0 : config.sources.intervalSeconds;
        const result = await ingestBoeDay(deps(fresh, date === today), date, {
          seen: data.watch ? versions.get(date) : undefined,
        });
        remember(date, result);
      } finally {
        if (data.backfill) await queueBackfill(today);
      }
    });
    kernel.queue<{ date?: string }>(QUEUES.backfill, {}, async ({ date }) => {
      if (!date || (await dayDone(date))) return;
      try {
        const result = await ingestBoeDay(deps(0), date);
        if (result.failed.length === 0) await markDayDone(date);
        await countBackfillDay(date, true, result.created);
      } catch (error) {
        await countBackfillDay(date, false, 0);
        throw error;
      }
    });
    kernel.queue(QUEUES.eurlex, {}, async () => {
      await ingestEurlex(deps(config.sources.intervalSeconds));
    });
    kernel.queue<{ feedId?: string }>(QUEUES.feed, {}, async ({ feedId }) => {
      // A feed removed since it was queued is not an error.
      if (feedId) await ingestFeed(deps(0), feedId).catch(feedGone);
    });
    kernel.queue(QUEUES.feeds, {}, async () => {
      await queueAllFeeds();
    });
    // Admins' RSS/Atom feeds: every interval during the day, whichever official sources run.
    kernel.schedule(QUEUES.feeds, `${every} 6-20 * * *`, null, { tz: TZ, key: "day" });
    if (enabled.includes("boe")) {
      if (watch.seconds > 0) {
        // The watch replaces the window's poll (a stale schedule from an older version goes).
        kernel.unschedule(QUEUES.boe, "window");
      } else kernel.schedule(QUEUES.boe, `${every} 7-9 * * 1-6`, null, { tz: TZ, key: "window" });
      kernel.schedule(QUEUES.boe, "0 * * * *", null, { tz: TZ, key: "hourly" });
    }
    if (enabled.includes("eurlex")) {
      kernel.schedule(QUEUES.eurlex, `${every} 6-20 * * *`, null, { tz: TZ, key: "day" });
    }
    kernel.afterStart("ingestion jobs", async () => {
      if (enabled.includes("boe")) {
        if (watch.seconds > 0) startWatch();
        // Today first (one summary request per instance's start); its run queues the missing past days when it is over.
        await kernel.send(QUEUES.boe, { backfill: Boolean(config.sources.since) } satisfies BoeJob);
      }
      log.info({ sources: enabled, intervalMinutes: minutes }, "ingestion jobs started");
    });
    kernel.beforeStop(() => clearTimeout(watchTimer));
  }
  const running = () => registered && kernel.started;

  return {
    async start() {
      if (ownKernel) await kernel.start();
    },
    async stop() {
      if (ownKernel) await kernel.stop();
    },
    async runSourceNow(sourceId, runOptions = {}) {
      if (!running()) return null;
      if (sourceId === "boe") {
        const date = runOptions.date ?? madridDate();
        return kernel.send(QUEUES.boe, { date }, { singletonKey: `${dayKey(date)}:now`, singletonSeconds: 30 });
      }
      if (sourceId === "eurlex")
        return kernel.send(QUEUES.eurlex, {}, { singletonKey: "eurlex:now", singletonSeconds: 30 });
      if (/^[0-9a-f-]{36}$/i.test(sourceId)) return queueFeed(sourceId);
      throw new Error(`unknown source "${sourceId}"`);
    },
    async runFeedsNow() {
      if (!running()) return 0;
      return queueAllFeeds();
    },
  };
}

function feedGone(error: unknown): void {
  if (error instanceof Error && /^feed .* not found$/.test(error.message)) return;
  throw error;
}
