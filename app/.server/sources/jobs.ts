/**
 * Ingestion jobs on the process's job kernel (kernel/kernel.ts: pg-boss 12 on PGlite and on
 * PostgreSQL across instances; a kernel of its own when none is given: tests, tools). Every source is a plug-in (sources/plugin.ts) registered in
 * sources/registry.ts: its poll plan names its queues, its schedules in Europe/Madrid, its
 * watch windows and its first run (today first, then the backfill: see sources/boe/jobs.ts).
 * Here, for every registered source: its queues are created and worked; a source INGEST_SOURCES
 * names (or one that is not selectable, such as admins' feeds) gets its schedules and its
 * start. INGEST_SOURCES=none: start() does nothing. runSourceNow(id) is the admin's "run now".
 */
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Classify } from "../documents/store.ts";
import { createKernel, type Kernel } from "../kernel/kernel.ts";
import { outboundFetch } from "../net/outbound.ts";
import { createSourceClients, type SourceClients } from "../sources/clients.ts";
import { createSourceHttp, productUserAgent } from "../sources/http.ts";
import type { IngestLog } from "../sources/ingest.ts";
import { instancePacer } from "../sources/pacing.ts";
import {
  type LawAlerts,
  noLawAlerts,
  type PollPlan,
  type SourceJobContext,
  type SourcePlugin,
  type WatchWindow,
} from "../sources/plugin.ts";
import { progressLogger } from "../sources/progress.ts";
import { registeredSources } from "../sources/registry.ts";
import { everyMinutes, inWatchWindow } from "../sources/schedule.ts";

export { daysBetween, inWatchWindow, madridDate } from "../sources/schedule.ts";

const TZ = "Europe/Madrid";

export interface JobsOptions {
  database: Database;
  /** The watch is off when `sources.watch` is absent (tests that build a config by hand). */
  config: Pick<Config, "siteUrl"> & {
    sources: Partial<Config["sources"]> & Pick<Config["sources"], "ingest" | "since" | "intervalSeconds">;
    alerts?: Pick<Config["alerts"], "allowPrivateWebhookUrls">;
  };
  log: IngestLog;
  /** The process's kernel (services.ts starts and stops it); absent: the jobs get one of their own. */
  kernel?: Kernel | undefined;
  classify?: Classify | undefined;
  onDocument?: ((documentId: string, isNew: boolean) => void | Promise<void>) | undefined;
  /** Followed laws' alerts for the law sources (services.ts); absent: changes alert nobody. */
  lawAlerts?: LawAlerts | undefined;
  /** Tests: injected clients (e.g. pointed at a replay server with a high rate). */
  clients?: SourceClients;
}

export interface IngestJobs {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Queues an immediate run: a source's id ("boe" with an optional `date`, "eurlex"), or an entry's (a feed's id). Null when ingestion is off. */
  runSourceNow(sourceId: string, options?: { date?: string }): Promise<string | null>;
  /** Queues a run of every admin-added feed now (what the schedule does each interval); the number queued. */
  runFeedsNow(): Promise<number>;
}

export function createJobs(options: JobsOptions): IngestJobs {
  const { database, config, log } = options;
  const enabled = config.sources.ingest;
  const allowPrivate = config.alerts?.allowPrivateWebhookUrls ?? false;
  const pacer = instancePacer(database, (error) => log.warn({ err: error }, "shared source pacing failed"));
  const clients =
    options.clients ??
    createSourceClients({
      urls: {
        boeApiUrl: config.sources.boeApiUrl ?? "",
        eurlexUrl: config.sources.eurlexUrl ?? "",
        cellarSparqlUrl: config.sources.cellarSparqlUrl ?? "",
        cellarUrl: config.sources.cellarUrl ?? "",
      },
      siteUrl: config.siteUrl,
      pacer,
      feedPolicy: { allowPrivate },
    });
  const ownKernel = !options.kernel;
  const kernel = options.kernel ?? createKernel({ database, log });
  const registered = enabled.length > 0;
  const every = everyMinutes(config.sources.intervalSeconds);
  const timers = new Set<NodeJS.Timeout>();

  /** In `window`, every `seconds`: the source's tick (the BOE's conditional check of today's summary). */
  const watch = (window: WatchWindow, seconds: number, tick: () => Promise<void>) => {
    let timer: NodeJS.Timeout;
    const run = async () => {
      timers.delete(timer);
      if (!kernel.started) return;
      try {
        if (inWatchWindow(window)) await tick();
      } catch (error) {
        log.warn({ err: error }, "source watch failed");
      }
      if (kernel.started) {
        timer = setTimeout(run, seconds * 1000);
        timers.add(timer);
      }
    };
    timer = setTimeout(run, 0);
    timers.add(timer);
  };
  const contextFor = (source: SourcePlugin): SourceJobContext => ({
    settings: config.sources,
    database,
    log,
    clients,
    http: (lane, httpOptions = {}) =>
      createSourceHttp({
        userAgent: productUserAgent(config.siteUrl),
        source: lane,
        pacer,
        ...(httpOptions.guarded
          ? {
              fetch: outboundFetch(
                { allowPrivate },
                { maxBytes: httpOptions.maxBytes ?? 5 * 1024 * 1024, timeoutMs: 20_000 },
              ),
            }
          : {}),
      }),
    lawAlerts: options.lawAlerts ?? noLawAlerts,
    deps: ({ freshSeconds, urgent = false }) => ({
      database,
      clients,
      log,
      classify: options.classify,
      onDocument: options.onDocument,
      freshSeconds,
      urgent,
      onProgress: progressLogger(log),
    }),
    send: (queue, data, sendOptions) => {
      if (!queue.startsWith(`ingest-${source.id}`)) throw new Error(`${source.id}: queue ${queue} is not its own`);
      return kernel.send(queue, data, sendOptions ?? {});
    },
    everyInterval: every.field,
    watch,
    running: () => kernel.started,
  });
  const plans = new Map<string, { source: SourcePlugin; plan: PollPlan }>();
  for (const source of registeredSources()) plans.set(source.id, { source, plan: source.plan(contextFor(source)) });
  const runs = (source: SourcePlugin) => !source.selectable || enabled.includes(source.id);

  if (registered) {
    // Every source's queues are worked (an admin's "run now" works whichever run on a schedule).
    for (const { source, plan } of plans.values()) {
      for (const queue of plan.queues) {
        if (!queue.name.startsWith(`ingest-${source.id}`))
          throw new Error(`${source.id}: queue ${queue.name} must start with ingest-${source.id}`);
        kernel.queue<Record<string, unknown>>(
          queue.name,
          {
            ...(queue.pollingIntervalSeconds ? { pollingIntervalSeconds: queue.pollingIntervalSeconds } : {}),
            ...(queue.retry
              ? {
                  retryLimit: queue.retry.limit,
                  retryDelay: queue.retry.delaySeconds,
                  retryBackoff: true,
                  retryDelayMax: queue.retry.maxDelaySeconds,
                }
              : {}),
          },
          (data, job) => queue.work(data, { retryCount: job.retryCount ?? 0 }),
        );
      }
    }
    // A source INGEST_SOURCES names (or one that always runs, admins' feeds): its schedules and its start.
    for (const { source, plan } of plans.values()) {
      if (!runs(source)) continue;
      for (const old of plan.retired ?? []) kernel.unschedule(old.queue, old.key);
      for (const schedule of plan.schedules)
        kernel.schedule(schedule.queue, schedule.cron, schedule.data ?? null, { tz: TZ, key: schedule.key });
    }
    kernel.afterStart("ingestion jobs", async () => {
      for (const { source, plan } of plans.values()) {
        if (!runs(source)) continue;
        await plan
          .start?.()
          .catch((error: unknown) => log.error({ err: error, source: source.id }, "source failed to start"));
      }
      log.info({ sources: enabled, intervalMinutes: every.minutes }, "ingestion jobs started");
    });
    kernel.beforeStop(async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const { plan } of plans.values()) await plan.stop?.();
    });
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
      const own = plans.get(sourceId) ?? [...plans.values()].find(({ source }) => source.ownsId?.(sourceId));
      if (!own) throw new Error(`unknown source "${sourceId}"`);
      return own.plan.runNow(sourceId, runOptions);
    },
    async runFeedsNow() {
      if (!running()) return 0;
      return (await plans.get("feed")?.plan.runAllNow?.()) ?? 0;
    },
  };
}
