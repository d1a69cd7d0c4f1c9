/**
 * The source plug-in interface: everything the platform needs to know about one source lives
 * in one folder (app/.server/sources/{id}/) behind this interface, and the source is
 * registered with ONE line in sources/registry.ts. From the registry the platform derives:
 * - config: the source's environment variables (validated, with defaults) and whether
 *   INGEST_SOURCES names it (config.ts builds its schema from every plug-in);
 * - jobs: the source's queues, schedules (Europe/Madrid), watch windows and backfill
 *   (sources/jobs.ts asks each plug-in for its poll plan);
 * - the Sources page and `GET /api/v1/sources`: the source's entries with their status
 *   (source_status rows keyed by `statusKey`) and its es/en labels;
 * - OpenAPI: the enum of source ids;
 * - classify: the source's classification hints (jurisdiction, kind, relevance, extra
 *   evidence), asked before the generic rules.
 * Fetching goes through the shared polite client (`context.http(lane)`: the instance's
 * pacer, the product's User-Agent, retries with back-off, conditional requests; pass
 * `{ guarded: true }` for URLs users typed, which then go through the outbound guard of
 * app/.server/net/). Parsed payloads carry provenance (`provenanceOf(payload, parserId)`).
 *
 * Adding a source: see docs/sources.md ("Add a source").
 */
import type { z } from "zod";
import type { AreaId, KindId } from "../../lib/taxonomy.ts";
import type { DocumentText } from "../classify/document-text.ts";
import type { JurisdictionResult } from "../classify/jurisdiction.ts";
import type { KindResult } from "../classify/kind.ts";
import type { RelevanceResult } from "../classify/relevance.ts";
import type { AreaEvidence } from "../classify/scores.ts";
import type { Database, Db } from "../db/client.ts";
import type { SourceDocument } from "../documents/types.ts";
import type { SourceClients } from "./clients.ts";
import type { SourceHttp } from "./http.ts";
import type { IngestDeps, IngestLog } from "./ingest.ts";

export { type Parsed, provenanceOf } from "./clients.ts";
export type { FetchedPayload, SourceHttp } from "./http.ts";

/** Copy in both of the product's languages. */
export type SourceLabels = Readonly<{ es: string; en: string }>;

/** The time zone of every schedule and watch window. */
export const SOURCES_TZ = "Europe/Madrid";

// ---------------------------------------------------------------------------------------------
// Configuration

/**
 * A source's configuration: the environment variables it reads (zod schemas, each with its
 * default or `.optional()`; name them after the source, e.g. `BOE_API_URL`) and the settings
 * it derives from them. The settings are merged into `config.sources` (so name their keys
 * after the source too: `boeApiUrl`, `lawsPerPoll`). A bad value fails the start with one
 * line naming the variable, as every other setting does.
 */
export interface SourceConfig<E extends z.ZodRawShape = z.ZodRawShape, S extends object = object> {
  env: E;
  read(values: z.output<z.ZodObject<E>>): S;
}

/** Settings common to every source (INGEST_SINCE, INGEST_INTERVAL_SECONDS). */
export interface CommonSourceSettings {
  /** Backfill start (YYYY-MM-DD), when set. */
  since: string | undefined;
  /** The polling interval in seconds. */
  intervalSeconds: number;
}

// ---------------------------------------------------------------------------------------------
// Poll plan (jobs)

/** One queue the source works (pg-boss); its name must start with `ingest-{id}`. */
export interface SourceQueue {
  name: string;
  /** Handles one job; a throw is logged and the job retried by the queue (`retryCount`: the retries so far). */
  work(data: Record<string, unknown>, job: { retryCount: number }): Promise<void>;
  /** How often an idle worker looks for jobs (default: the queue's default, 2 s). */
  pollingIntervalSeconds?: number;
  /** The queue's retries of a failed job: up to `limit`, exponential from `delaySeconds` (with jitter), capped at `maxDelaySeconds`. */
  retry?: { limit: number; delaySeconds: number; maxDelaySeconds: number };
}

/** A cron schedule in Europe/Madrid on one of the source's queues (`key` distinguishes several). */
export interface SourceSchedule {
  queue: string;
  cron: string;
  key: string;
  data?: Record<string, unknown>;
}

/** A watch window: Europe/Madrid weekdays (0 = Sunday) and minutes of the day [fromMinute, toMinute). */
export interface WatchWindow {
  days: readonly number[];
  fromMinute: number;
  toMinute: number;
}

/**
 * What the jobs do for a source. The jobs create every queue, put every schedule in place,
 * remove the `retired` ones, then call `start()` (queue today's run, start a watch, queue a
 * backfill). `stop()` is called before the queue stops.
 */
export interface PollPlan {
  queues: SourceQueue[];
  schedules: SourceSchedule[];
  /** Schedules an earlier version (or another setting) put in place that this plan does not want. */
  retired?: Array<{ queue: string; key: string }>;
  start?(): Promise<void>;
  stop?(): void | Promise<void>;
  /**
   * The admin's "run now" for one of the source's entries (`id` as listed by `entries`):
   * queue a run; the job id, or null when one was queued seconds ago.
   */
  runNow(id: string, options: { date?: string }): Promise<string | null>;
  /** Optional extra: run every entry now (feeds: every admin-added feed); the number queued. */
  runAllNow?(): Promise<number>;
}

/** Options of `context.send` (pg-boss's singleton and delay options). */
export interface SendOptions {
  singletonKey?: string;
  singletonSeconds?: number;
  /** Seconds before the job may run (a retry's first wait). */
  startAfter?: number;
}

/**
 * What becomes of a recorded change of a followed law: its followers are alerted. The laws
 * capability does it (laws/service.ts lawAlertsFor); the composition root gives it to the jobs,
 * so the law sources record changes without knowing about follows or channels.
 */
export interface LawAlerts {
  /** Matches the change against the follows and writes their alerts; returns the laws' figures. */
  changed(changeId: string): Promise<unknown>;
  /** Finishes the alerts a stopped process left half written (every law poll starts with it). */
  sweep(): Promise<unknown>;
}

/** Without the laws capability (tests, tools): changes are recorded, nobody is alerted. */
export const noLawAlerts: LawAlerts = { changed: async () => undefined, sweep: async () => undefined };

/** What the jobs give a source's poll plan. */
export interface SourceJobContext<S extends object = object> {
  /** The source's settings (config.sources; fields a hand-built test config leaves out are undefined). */
  settings: Partial<S> & CommonSourceSettings;
  database: Database;
  log: IngestLog;
  /** The shared polite clients of the built-in sources (BOE, EUR-Lex/Cellar, feeds). */
  clients: SourceClients;
  /**
   * The shared polite HTTP client for a pacing lane (use the source id, or `{id}:{host}`):
   * the instance's pacer (2 requests per second per lane across instances), the product's
   * User-Agent, timeouts, retries with back-off on 5xx/429/network errors, conditional
   * requests. `guarded: true` for URLs a user typed: every hop through the outbound guard.
   */
  http(lane: string, options?: { guarded?: boolean; maxBytes?: number }): SourceHttp;
  /** Followed laws' alerts, for the sources that record law changes. */
  lawAlerts: LawAlerts;
  /** What ingest helpers need (database, clients, classify and onDocument hooks, progress). */
  deps(options: { freshSeconds: number; urgent?: boolean }): IngestDeps;
  /** Queues a job on one of the source's queues. */
  send(queue: string, data: Record<string, unknown>, options?: SendOptions): Promise<string | null>;
  /** The cron minute field for "every INGEST_INTERVAL_SECONDS" ("*\/5", or "0" for an hour or more). */
  everyInterval: string;
  /** Calls `tick` every `seconds` while the jobs run and `window` holds (Madrid time); timers are the jobs'. */
  watch(window: WatchWindow, seconds: number, tick: () => Promise<void>): void;
  /** False once the jobs are stopping. */
  running(): boolean;
}

// ---------------------------------------------------------------------------------------------
// Sources page and API

/** One line of the Sources page and of `GET /api/v1/sources`. */
export interface SourceEntry {
  /** What "run now" takes: the source id, or an instance's id (a feed's uuid). */
  id: string;
  /** The source_status row (recordStatus(database, statusKey, …)): the source id, or `{id}:{instance}`. */
  statusKey: string;
  /** An instance's own name and URL (a feed's); null for a source with one entry. */
  name: string | null;
  url: string | null;
}

// ---------------------------------------------------------------------------------------------
// Classification hints

/**
 * What the source knows about its documents' classification, asked by classify before its
 * generic rules (which read BOE-style departments, sections and ranks). Return undefined to
 * let the generic rule decide. Keep hints pure (no I/O): classification runs at ingest and at
 * reclassification.
 */
export interface ClassificationHints {
  jurisdiction?(doc: SourceDocument, text: DocumentText): JurisdictionResult | undefined;
  kind?(doc: SourceDocument, text: DocumentText): KindResult | undefined;
  relevance?(doc: SourceDocument, text: DocumentText, kind: KindId): RelevanceResult | undefined;
  /**
   * Extra evidence for business areas from the source's own codes (added to the code layer);
   * `exclusive`: the area the source's own code decides alone (a BOE section V-A).
   */
  codes?(doc: SourceDocument, text: DocumentText, evidence: AreaEvidence): { exclusive?: AreaId } | undefined;
}

// ---------------------------------------------------------------------------------------------
// The plug-in

export interface SourcePlugin<Id extends string = string, S extends object = object> {
  /** The id: documents.source of what it stores, INGEST_SOURCES, queue names (`ingest-{id}`), URLs. Lowercase letters, digits and dashes. */
  id: Id;
  /** The source's name (Sources page, filters, badges). */
  labels: SourceLabels;
  /** The short name for badges and filters ("BOE"); default `labels`. */
  shortLabels?: SourceLabels;
  /** One sentence on what the source publishes (Sources page). */
  descriptions?: SourceLabels;
  /**
   * `true`: INGEST_SOURCES names it (and `defaultOn` puts it in the default list);
   * `false`: it runs whenever ingestion is on (admins' feeds: their rows say what to fetch).
   */
  selectable: boolean;
  defaultOn?: boolean;
  /** `false` for a source that stores no documents (followed laws): not offered as a documents filter. Default true. */
  storesDocuments?: boolean;
  /** Parser ids the source writes into provenance ("boe-summary@1"), for the record. */
  parsers: readonly string[];
  config?: SourceConfig<z.ZodRawShape, S>;
  /** The jobs: queues, schedules, watch, backfill, run now. */
  plan(context: SourceJobContext<S>): PollPlan;
  /** The source's lines on an organisation's Sources page; default one line `{ id, statusKey: id }`. */
  entries?(db: Db, organizationId: string): Promise<SourceEntry[]>;
  /** Whether an entry id other than the source's own (a feed's uuid) has this source's shape, for "run now". */
  ownsId?(id: string): boolean;
  classification?: ClassificationHints;
}

/**
 * Declares a source with its types inferred (settings from `config.read`). Use it in the
 * source's index.ts: `export const boeSource = defineSource({ id: "boe", … })`.
 */
export function defineSource<
  const Id extends string,
  E extends z.ZodRawShape = z.ZodRawShape,
  S extends object = object,
>(plugin: Omit<SourcePlugin<Id, S>, "config"> & { config?: SourceConfig<E, S> }): SourcePlugin<Id, S> {
  if (!/^[a-z][a-z0-9-]{1,30}$/.test(plugin.id))
    throw new Error(`source id "${plugin.id}" must be lowercase letters, digits and dashes`);
  return plugin as SourcePlugin<Id, S>;
}

/** The settings type of a plug-in. */
export type SettingsOf<P> = P extends SourcePlugin<string, infer S> ? S : never;
