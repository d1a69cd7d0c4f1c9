/**
 * The BOE's poll plan. Schedules in Europe/Madrid: hourly, and in its publication window
 * (BOE_WATCH_WINDOW, default Monday to Saturday 07:00-10:00) today's summary is watched every
 * BOE_WATCH_SECONDS (default 15) with conditional requests: a summary still at the version
 * last ingested costs the source a 304 and nothing else (with the watch off, the window's poll
 * is every INGEST_INTERVAL_SECONDS, rounded to minutes, as before).
 * Today first: at start today's issue is ingested, then INGEST_SINCE's missing days are
 * queued, newest first, on their own queue (ingest-boe-backfill), so that no poll of today
 * waits behind a past day, and today's requests leave before the backfill's in the BOE's lane
 * of the instance's pacer. A past day ingested without failures is remembered (source_fetches
 * `boe:day:{date}`) and not fetched again at the next start. One fetch per day and per
 * document across instances: singleton keys per day on the queue, and per-document claims in
 * source_fetches (see ingest.ts).
 */
import { sql } from "drizzle-orm";
import type { SummaryVersion } from "../clients.ts";
import { type BoeDocumentRetry, type IngestResult, ingestBoeDay, retryBoeDocument } from "../ingest.ts";
import type { PollPlan, SourceJobContext } from "../plugin.ts";
import { backfillDayDone, formatDuration, resizeBackfill, secondsLeft, startBackfill } from "../progress.ts";
import { daysBetween, madridDate } from "../schedule.ts";
import type { BoeSettings } from "./config.ts";

export const BOE_QUEUES = {
  today: "ingest-boe",
  /** Past days (INGEST_SINCE), one job per day, after today's issue. */
  backfill: "ingest-boe-backfill",
  /** A document that failed, tried again on its own backoff whatever the poll schedule. */
  retry: "ingest-boe-retry",
} as const;

/**
 * A failed document's retries (decision 0121): the first 15 s after the failure, then pg-boss's
 * exponential backoff from 30 s with jitter (about 0.5-1, 1-2, 2-4 … minutes), capped at 3 hours,
 * 12 retries: given up after about half a day, with the reason on the Sources page.
 */
export const BOE_DOCUMENT_RETRY = { firstSeconds: 15, limit: 12, delaySeconds: 30, maxDelaySeconds: 3 * 3600 };

interface BoeJob {
  date?: string;
  /** The watch: a conditional check of the summary, nothing more when it has not changed. */
  watch?: boolean;
  /** At start: queue the missing past days once this (today's) run is over. */
  backfill?: boolean;
}

export function boePlan(
  context: SourceJobContext<BoeSettings & { documentRetry?: typeof BOE_DOCUMENT_RETRY }>,
): PollPlan {
  const { database, settings, log } = context;
  const retry = settings.documentRetry ?? BOE_DOCUMENT_RETRY;
  /** Hands a failed document to the retry queue (one pending retry per document). */
  const retryLater = async (failed: BoeDocumentRetry) =>
    (await context.send(BOE_QUEUES.retry, failed as unknown as Record<string, unknown>, {
      startAfter: retry.firstSeconds,
      singletonKey: `boe:retry:${failed.item.sourceId}`,
      singletonSeconds: 3600,
    })) !== null;
  const deps = (options: Parameters<SourceJobContext["deps"]>[0]) => ({ ...context.deps(options), retryLater });
  const watch = settings.watch ?? { seconds: 0, days: [], fromMinute: 0, toMinute: 0 };
  /** The summary version last ingested in full, per day (for conditional checks). */
  const versions = new Map<string, SummaryVersion>();
  const remember = (date: string, result: IngestResult) => {
    // No issue (any more): the next one that appears is ingested whatever its validators.
    if (result.noIssue) versions.delete(date);
    // Failures handed to the retry queue do not need the summary fetched again.
    if (result.summaryVersion && result.failed.every((failure) => failure.retrying)) {
      for (const key of versions.keys()) if (key !== date) versions.delete(key);
      versions.set(date, result.summaryVersion);
    }
  };
  const dayDoneKey = (date: string) => `boe:day:${date}`;
  const dayKey = (date: string) => `boe:${date}`;
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
  /** The days from INGEST_SINCE to yesterday, newest first, one job each. */
  const queueBackfill = async (today: string) => {
    if (!settings.since) return;
    const missing: string[] = [];
    for (const date of daysBetween(settings.since, today)
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
      const id = await context.send(
        BOE_QUEUES.backfill,
        { date },
        { singletonKey: dayKey(date), singletonSeconds: 3600 },
      );
      if (id) queued++;
    }
    // Days already queued by an earlier start in the last hour are not queued twice.
    if (queued < missing.length) await resizeBackfill(database, "boe", queued);
  };

  return {
    queues: [
      {
        name: BOE_QUEUES.today,
        pollingIntervalSeconds: 1,
        async work(data: BoeJob) {
          const today = madridDate();
          const date = data.date ?? today;
          try {
            const fresh = data.date && !data.watch ? 0 : settings.intervalSeconds;
            const result = await ingestBoeDay(deps({ freshSeconds: fresh, urgent: date === today }), date, {
              seen: data.watch ? versions.get(date) : undefined,
            });
            remember(date, result);
          } finally {
            if (data.backfill) await queueBackfill(today);
          }
        },
      },
      {
        name: BOE_QUEUES.backfill,
        async work(data: { date?: string }) {
          const date = data.date;
          if (!date || (await dayDone(date))) return;
          try {
            const result = await ingestBoeDay(deps({ freshSeconds: 0 }), date);
            if (result.failed.length === 0) await markDayDone(date);
            await countBackfillDay(date, true, result.created);
          } catch (error) {
            await countBackfillDay(date, false, 0);
            throw error;
          }
        },
      },
      {
        name: BOE_QUEUES.retry,
        retry: { limit: retry.limit, delaySeconds: retry.delaySeconds, maxDelaySeconds: retry.maxDelaySeconds },
        async work(data, job) {
          const failed = data as unknown as BoeDocumentRetry;
          if (!failed.item?.sourceId || !failed.date) return;
          await retryBoeDocument(deps({ freshSeconds: 0 }), failed, {
            number: job.retryCount + 1,
            lastAttempt: job.retryCount >= retry.limit,
          });
        },
      },
    ],
    schedules: [
      // With the watch on, the watch replaces the window's poll.
      ...(watch.seconds > 0
        ? []
        : [{ queue: BOE_QUEUES.today, cron: `${context.everyInterval} 7-9 * * 1-6`, key: "window" }]),
      // Every INGEST_INTERVAL_SECONDS, all day: a conditional check of today's summary (a 304 when unchanged).
      { queue: BOE_QUEUES.today, cron: `${context.everyInterval} * * * *`, data: { watch: true }, key: "interval" },
      // Hourly, unconditional: corrections to single documents of today.
      { queue: BOE_QUEUES.today, cron: "0 * * * *", key: "hourly" },
    ],
    // A stale window schedule from an older version (or from a start with the watch off) goes.
    retired: watch.seconds > 0 ? [{ queue: BOE_QUEUES.today, key: "window" }] : [],
    async start() {
      if (watch.seconds > 0) {
        // In the window, every watch.seconds: one conditional check of today's summary across instances.
        context.watch(watch, watch.seconds, async () => {
          const date = madridDate();
          try {
            await context.send(BOE_QUEUES.today, { date, watch: true } satisfies BoeJob, {
              singletonKey: `boe:watch:${date}`,
              singletonSeconds: watch.seconds,
            });
          } catch (error) {
            log.warn({ err: error }, "BOE watch could not queue a check");
          }
        });
      }
      // Today first (one summary request per instance's start); its run queues the missing past days when it is over.
      await context.send(BOE_QUEUES.today, { backfill: Boolean(settings.since) } satisfies BoeJob);
    },
    runNow(_id, options) {
      const date = options.date ?? madridDate();
      return context.send(BOE_QUEUES.today, { date }, { singletonKey: `${dayKey(date)}:now`, singletonSeconds: 30 });
    },
  };
}
