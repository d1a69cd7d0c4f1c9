/**
 * Ingestion jobs on pg-boss 12, on PGlite (custom `db` adapter over Database.query) and on
 * PostgreSQL across instances. Schedules in Europe/Madrid: BOE every INGEST_INTERVAL_SECONDS
 * (rounded to minutes) from 07:00 to 10:00 Monday to Saturday and hourly otherwise; EUR-Lex
 * every interval from 06:00 to 21:00, and so are the RSS/Atom feeds admins added (one job per
 * feed). INGEST_SINCE backfills missing BOE days at start.
 * One fetch per day and per document across instances: singleton keys per day on the queue,
 * and per-document claims in source_fetches (see ingest.ts). INGEST_SOURCES=none: start()
 * does nothing. runSourceNow(sourceId) is the admin's "run now".
 */
import { PgBoss } from "pg-boss";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { sourceFeeds } from "../db/schema/documents.ts";
import type { Classify } from "../documents/store.ts";
import { createSourceClients, type SourceClients } from "../sources/clients.ts";
import { type IngestLog, ingestBoeDay, ingestEurlex, ingestFeed } from "../sources/ingest.ts";
import { bossDb, startBoss } from "./boss.ts";

export const QUEUES = {
  boe: "ingest-boe",
  eurlex: "ingest-eurlex",
  feed: "ingest-feed",
  /** Fans out one ingest-feed job per admin-added feed (every interval during the day). */
  feeds: "ingest-feeds",
} as const;
const TZ = "Europe/Madrid";

export interface JobsOptions {
  database: Database;
  config: Pick<Config, "siteUrl" | "sources"> & { alerts?: Pick<Config["alerts"], "allowPrivateWebhookUrls"> };
  log: IngestLog;
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

export function createJobs(options: JobsOptions): IngestJobs {
  const { database, config, log } = options;
  const enabled = config.sources.ingest;
  const clients =
    options.clients ??
    createSourceClients({
      urls: config.sources,
      siteUrl: config.siteUrl,
      feedPolicy: { allowPrivate: config.alerts?.allowPrivateWebhookUrls ?? false },
    });
  const deps = (freshSeconds: number) => ({
    database,
    clients,
    log,
    classify: options.classify,
    onDocument: options.onDocument,
    freshSeconds,
  });
  const boss = new PgBoss({
    db: bossDb(database),
    backend: database.kind === "pglite" ? "pglite" : "postgres",
    schema: "pgboss",
  });
  boss.on("error", (error: unknown) => log.error({ err: error }, "job queue error"));
  let started = false;
  const minutes = Math.max(1, Math.round(config.sources.intervalSeconds / 60));
  const every = minutes >= 60 ? "0" : `*/${minutes}`;

  const dayKey = (date: string) => `boe:${date}`;
  const queueFeed = (feedId: string) =>
    boss.send(QUEUES.feed, { feedId }, { singletonKey: `feed:${feedId}`, singletonSeconds: 30 });
  const queueAllFeeds = async () => {
    const feeds = await database.db.select({ id: sourceFeeds.id }).from(sourceFeeds);
    let queued = 0;
    for (const feed of feeds) if (await queueFeed(feed.id)) queued++;
    return queued;
  };

  return {
    async start() {
      if (enabled.length === 0 || started) return;
      await startBoss(boss, log);
      started = true;
      for (const name of Object.values(QUEUES)) await boss.createQueue(name);
      await boss.work<{ date?: string }>(QUEUES.boe, { batchSize: 1 }, async ([job]) => {
        const date = job?.data?.date ?? madridDate();
        await ingestBoeDay(deps(job?.data?.date ? 0 : config.sources.intervalSeconds), date);
      });
      await boss.work(QUEUES.eurlex, { batchSize: 1 }, async () => {
        await ingestEurlex(deps(config.sources.intervalSeconds));
      });
      await boss.work<{ feedId: string }>(QUEUES.feed, { batchSize: 1 }, async ([job]) => {
        // A feed removed since it was queued is not an error.
        if (job?.data?.feedId) await ingestFeed(deps(0), job.data.feedId).catch(feedGone);
      });
      await boss.work(QUEUES.feeds, { batchSize: 1 }, async () => {
        await queueAllFeeds();
      });
      // Admins' RSS/Atom feeds: every interval during the day, whichever official sources run.
      await boss.schedule(QUEUES.feeds, `${every} 6-20 * * *`, null, { tz: TZ, key: "day" });
      if (enabled.includes("boe")) {
        await boss.schedule(QUEUES.boe, `${every} 7-9 * * 1-6`, null, { tz: TZ, key: "window" });
        await boss.schedule(QUEUES.boe, "0 * * * *", null, { tz: TZ, key: "hourly" });
        if (config.sources.since) {
          for (const date of daysBetween(config.sources.since, madridDate())) {
            await boss.send(QUEUES.boe, { date }, { singletonKey: dayKey(date), singletonSeconds: 3600 });
          }
        }
      }
      if (enabled.includes("eurlex")) {
        await boss.schedule(QUEUES.eurlex, `${every} 6-20 * * *`, null, { tz: TZ, key: "day" });
      }
      log.info({ sources: enabled, intervalMinutes: minutes }, "ingestion jobs started");
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
    async runSourceNow(sourceId, runOptions = {}) {
      if (!started) return null;
      if (sourceId === "boe") {
        const date = runOptions.date ?? madridDate();
        return boss.send(QUEUES.boe, { date }, { singletonKey: `${dayKey(date)}:now`, singletonSeconds: 30 });
      }
      if (sourceId === "eurlex")
        return boss.send(QUEUES.eurlex, {}, { singletonKey: "eurlex:now", singletonSeconds: 30 });
      if (/^[0-9a-f-]{36}$/i.test(sourceId)) return queueFeed(sourceId);
      throw new Error(`unknown source "${sourceId}"`);
    },
    async runFeedsNow() {
      if (!started) return 0;
      return queueAllFeeds();
    },
  };
}

function feedGone(error: unknown): void {
  if (error instanceof Error && /^feed .* not found$/.test(error.message)) return;
  throw error;
}
