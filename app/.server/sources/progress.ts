/**
 * Progress of long ingestion work, for people watching: the backfill of missing days at start
 * (kept in ingest_backfill so that every instance's Sources page shows it) and log lines at
 * a bounded rate while a day or feed is ingested (the server's pino log, the CLI off a terminal).
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { ingestBackfill } from "../db/schema/documents.ts";
import type { IngestLog, IngestProgress } from "./ingest.ts";

/** Starts (or restarts) a backfill of `days` (YYYY-MM-DD, ascending): the counters start at zero. */
export async function startBackfill(database: Database, source: string, days: string[]): Promise<void> {
  const values = {
    daysTotal: days.length,
    daysDone: 0,
    daysFailed: 0,
    documents: 0,
    firstDay: days[0] ?? null,
    lastDay: days.at(-1) ?? null,
    startedAt: new Date(),
    finishedAt: days.length === 0 ? new Date() : null,
    updatedAt: new Date(),
  };
  await database.db
    .insert(ingestBackfill)
    .values({ source, ...values })
    .onConflictDoUpdate({ target: ingestBackfill.source, set: values });
}

/** Sets how many days the backfill really queued (fewer when some were queued already). */
export async function resizeBackfill(database: Database, source: string, daysTotal: number): Promise<void> {
  await database.rows(sql`
    update ingest_backfill set days_total = ${daysTotal},
      finished_at = case when days_done + days_failed >= ${daysTotal} then coalesce(finished_at, now()) else null end,
      updated_at = now()
    where source = ${source}`);
}

export interface BackfillCounts {
  daysTotal: number;
  daysDone: number;
  daysFailed: number;
  documents: number;
  startedAt: Date;
}

/** Counts one backfilled day (done or failed) and its new documents; the counts after it. */
export async function backfillDayDone(
  database: Database,
  source: string,
  outcome: { ok: boolean; documents: number },
): Promise<BackfillCounts | null> {
  const rows = await database.rows<{
    days_total: number;
    days_done: number;
    days_failed: number;
    documents: number;
    started_at: string | Date;
  }>(sql`
    update ingest_backfill set
      days_done = least(days_total, days_done + ${outcome.ok ? 1 : 0}),
      days_failed = least(days_total, days_failed + ${outcome.ok ? 0 : 1}),
      documents = documents + ${outcome.documents},
      finished_at = case when days_done + days_failed + 1 >= days_total then coalesce(finished_at, now()) else finished_at end,
      updated_at = now()
    where source = ${source}
    returning days_total, days_done, days_failed, documents, started_at`);
  const row = rows[0];
  if (!row) return null;
  return {
    daysTotal: Number(row.days_total),
    daysDone: Number(row.days_done),
    daysFailed: Number(row.days_failed),
    documents: Number(row.documents),
    startedAt: new Date(row.started_at),
  };
}

/** Seconds left at the rate so far (null before anything is done). */
export function secondsLeft(done: number, total: number, elapsedMs: number): number | null {
  if (done <= 0 || elapsedMs <= 0) return null;
  return Math.max(0, Math.round(((total - done) * elapsedMs) / done / 1000));
}

/** "1 h 5 min", "3 min 20 s", "12 s": a duration for a progress line. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "?";
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
  if (seconds >= 60) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${seconds} s`;
}

/**
 * An onProgress that logs one info line when a run knows its size, then at most one every
 * `intervalMs` while documents are handled, and the last one: a 2-minute day is never silent,
 * a fast one costs two lines.
 */
export function progressLogger(
  log: Pick<IngestLog, "info">,
  intervalMs = 15_000,
  now: () => number = Date.now,
): (progress: IngestProgress) => void {
  const started = now();
  let lastAt = Number.NEGATIVE_INFINITY;
  return (progress) => {
    const at = now();
    const last = progress.done >= progress.listed;
    if (!last && at - lastAt < intervalMs) return;
    lastAt = at;
    const elapsed = at - started;
    log.info(
      {
        source: progress.source,
        ...(progress.date ? { date: progress.date } : {}),
        done: progress.done,
        listed: progress.listed,
        created: progress.created,
        failed: progress.failed,
        perSecond: elapsed > 0 ? Math.round((progress.done * 10_000) / elapsed) / 10 : 0,
        secondsLeft: secondsLeft(progress.done, progress.listed, elapsed),
      },
      "ingest progress",
    );
  };
}
