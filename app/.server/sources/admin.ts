/**
 * The sources an organisation sees and manages: every registered source's entries
 * (sources/registry.ts: BOE and EUR-Lex are everyone's, the RSS/Atom feeds its admins added
 * are its own), each with its status (last success, last error, documents today, from
 * source_status), and the feeds' add/remove. Used by GET /api/v1/sources and /app/admin/sources.
 */

import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { validationText } from "../../i18n/validation.ts";
import { madridDate } from "../../lib/madrid-date.ts";
import { recordAudit } from "../audit/record.ts";
import type { AuditEventInput } from "../audit/types.ts";
import type { Db } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import { ingestBackfill, sourceFeeds, sourceStatus } from "../db/schema/documents.ts";
import { type OutboundUrlOptions, outboundUrlField } from "../net/url-field.ts";
import { failureKindFromMessage, isSourceFailureKind, type SourceFailureKind } from "./errors.ts";
import type { IngestJobs } from "./jobs.ts";
import type { SourceEntry, SourceLabels, SourcePlugin } from "./plugin.ts";
import { registeredSources } from "./registry.ts";

export interface SourceView {
  /** "boe", "eurlex", or a feed's id (what POST /api/v1/sources/{id}/run takes). */
  id: string;
  /** The registered source it belongs to ("boe", "eurlex", "feed", …). */
  type: string;
  /** The source's name in es and en (the registry's labels). */
  labels: SourceLabels;
  /** The feed's name and URL; null for BOE and EUR-Lex. */
  name: string | null;
  url: string | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  lastErrorUrl: string | null;
  lastErrorAt: Date | null;
  /** What kind of failure the last error was (sources/errors.ts); null without an error. */
  lastErrorKind: SourceFailureKind | null;
  /** True once a run that started after the last error succeeded: the error is history. */
  lastErrorPast: boolean;
  /** The last thing that happened to the source was an error (no success since): members are told. */
  failing: boolean;
  /** Documents added today (Europe/Madrid); 0 when the last count is of another day. */
  documentsToday: number;
}

/** A source's entries for an organisation: its own (`entries`), or one line under its id. */
function entriesOf(source: SourcePlugin, db: Db, organizationId: string): Promise<SourceEntry[]> {
  return source.entries
    ? source.entries(db, organizationId)
    : Promise.resolve([{ id: source.id, statusKey: source.id, name: null, url: null }]);
}

export async function listSources(db: Db, organizationId: string, now = new Date()): Promise<SourceView[]> {
  const lines: Array<{ source: SourcePlugin; entry: SourceEntry }> = [];
  for (const source of registeredSources()) {
    for (const entry of await entriesOf(source, db, organizationId)) lines.push({ source, entry });
  }
  const keys = lines.map(({ entry }) => entry.statusKey);
  const statuses = keys.length ? await db.select().from(sourceStatus).where(inArray(sourceStatus.source, keys)) : [];
  const byKey = new Map(statuses.map((row) => [row.source, row]));
  const today = madridDate(now);
  return lines.map(({ source, entry }): SourceView => {
    const status = byKey.get(entry.statusKey);
    const errorAt = status?.lastErrorAt ?? null;
    const successRunAt = status?.lastSuccessRunStartedAt ?? status?.lastSuccessAt ?? null;
    const lastErrorKind = status?.lastError
      ? isSourceFailureKind(status.lastErrorKind)
        ? status.lastErrorKind
        : failureKindFromMessage(status.lastError)
      : null;
    return {
      id: entry.id,
      type: source.id,
      labels: source.labels,
      name: entry.name,
      url: entry.url,
      lastSuccessAt: status?.lastSuccessAt ?? null,
      lastError: status?.lastError ?? null,
      lastErrorUrl: status?.lastErrorUrl ?? null,
      lastErrorAt: errorAt,
      lastErrorKind,
      lastErrorPast: Boolean(status?.lastError && errorAt && successRunAt && successRunAt > errorAt),
      failing: Boolean(status?.lastError && errorAt && (!status.lastSuccessAt || status.lastSuccessAt < errorAt)),
      documentsToday: status && status.documentsDay === today ? status.documentsToday : 0,
    };
  });
}

export interface BackfillView {
  daysTotal: number;
  daysDone: number;
  daysFailed: number;
  documents: number;
  firstDay: string | null;
  lastDay: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

/** The BOE backfill of missing days at start (INGEST_SINCE); null when none ever ran. */
export async function backfillProgress(db: Db, source = "boe"): Promise<BackfillView | null> {
  const [row] = await db.select().from(ingestBackfill).where(eq(ingestBackfill.source, source));
  if (!row) return null;
  return {
    daysTotal: row.daysTotal,
    daysDone: row.daysDone,
    daysFailed: row.daysFailed,
    documents: row.documents,
    firstDay: row.firstDay,
    lastDay: row.lastDay,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

export interface SourcesNotice {
  /** Sources whose last event was an error (members are told recent documents may be missing). */
  failing: Array<Pick<SourceView, "id" | "type" | "name" | "labels">>;
  /** The sources are still loading: a backfill under way, or no source has succeeded yet. */
  loading: { daysDone: number; daysTotal: number } | null;
}

/**
 * What a member's home says about the sources: the failing ones, and whether they are still
 * loading (a backfill under way, or ingestion on and nothing fetched yet).
 */
export async function sourcesNotice(db: Db, organizationId: string, ingestEnabled: boolean): Promise<SourcesNotice> {
  const sources = await listSources(db, organizationId);
  const failing = sources.filter((s) => s.failing).map(({ id, type, name, labels }) => ({ id, type, name, labels }));
  const backfill = await backfillProgress(db);
  let loading: SourcesNotice["loading"] = null;
  if (backfill && !backfill.finishedAt) loading = { daysDone: backfill.daysDone, daysTotal: backfill.daysTotal };
  else if (ingestEnabled && failing.length === 0 && !sources.some((s) => s.lastSuccessAt) && !(await anyDocument(db)))
    loading = { daysDone: 0, daysTotal: 0 };
  return { failing, loading };
}

async function anyDocument(db: Db): Promise<boolean> {
  return (await rowsOf(db, sql`select 1 from documents limit 1`)).length > 0;
}

/** Whether `id` names a source entry this organisation may run: boe, eurlex, one of its feeds, … */
export async function isOwnSource(db: Db, organizationId: string, id: string): Promise<boolean> {
  for (const source of registeredSources()) {
    if (!source.entries) {
      if (source.id === id) return true;
    } else if (source.ownsId?.(id) ?? source.id === id) {
      // A source with entries (admins' feeds): only its entries for this organisation.
      if ((await source.entries(db, organizationId)).some((entry) => entry.id === id)) return true;
    }
  }
  return false;
}

/**
 * The add-feed form: one schema for the page's form and its action. The server fetches the URL,
 * so it passes the outbound guard as webhooks do (parse with safeParseAsync; allowPrivate: tests only).
 */
export function feedInputSchema(locale: "es" | "en", options: OutboundUrlOptions = {}) {
  const t = validationText(locale).feed;
  return z.object({
    name: z.string({ error: t.name }).trim().min(1, t.name).max(120, t.name),
    url: outboundUrlField(t.url, options),
  });
}

export type FeedInput = z.output<ReturnType<typeof feedInputSchema>>;

/** Adds a feed; null when the organisation already has that URL. */
export async function addFeed(
  tx: Db,
  organizationId: string,
  input: FeedInput,
): Promise<{ id: string; name: string; url: string } | null> {
  const [row] = await tx
    .insert(sourceFeeds)
    .values({ organizationId, name: input.name, url: input.url })
    .onConflictDoNothing()
    .returning({ id: sourceFeeds.id, name: sourceFeeds.name, url: sourceFeeds.url });
  return row ?? null;
}

/** Removes one of the organisation's feeds (its documents stay); null when it is not theirs. */
export async function removeFeed(
  tx: Db,
  organizationId: string,
  id: string,
): Promise<{ id: string; url: string } | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [row] = await tx
    .delete(sourceFeeds)
    .where(and(eq(sourceFeeds.organizationId, organizationId), eq(sourceFeeds.id, id)))
    .returning({ id: sourceFeeds.id, url: sourceFeeds.url });
  return row ?? null;
}

export type RunOutcome = { status: "queued"; jobId: string | null } | { status: "off" } | { status: "not_found" };

/**
 * "Run now" for the API and the Sources page: queues the source's job and records
 * `source.run_requested`. `off` when this server does not ingest (INGEST_SOURCES=none, tests);
 * a null jobId when a run of that source was already queued in the last seconds.
 */
export async function requestSourceRun(
  db: Db,
  jobs: Pick<IngestJobs, "runSourceNow"> | undefined,
  ingestEnabled: boolean,
  organizationId: string,
  id: string,
  audit: Omit<AuditEventInput, "organizationId" | "action" | "object">,
): Promise<RunOutcome> {
  if (!(await isOwnSource(db, organizationId, id))) return { status: "not_found" };
  if (!jobs || !ingestEnabled) return { status: "off" };
  const jobId = await jobs.runSourceNow(id);
  await recordAudit(db, {
    ...audit,
    organizationId,
    action: "source.run_requested",
    object: { type: "source", id },
    detail: { ...audit.detail, jobId },
  });
  return { status: "queued", jobId };
}
