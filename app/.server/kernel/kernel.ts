/**
 * The process's background-work kernel: ONE pg-boss client (kernel/boss.ts) with which the
 * capabilities (ingestion, classification, alerts, the pipeline's events) register their queues,
 * workers and schedules before services.ts starts it, once, and stops it, once.
 *
 * Jobs off (tests, in-memory runs: `enabled: false`): nothing touches pg-boss; `send` runs the
 * queue's handler at once, in this process, and resolves when it is done (errors reach the
 * caller), which is how matching ran inline before the kernel. Schedules are then ignored.
 *
 * Across instances on PostgreSQL everything pg-boss guarantees holds: queue policies (singleton,
 * stately), singleton keys on send, one stored schedule per (queue, key) whatever the instances,
 * and NOTIFY wake-ups on queues created with `notify: true`.
 */
import type { PgBoss, Queue, SendOptions, WorkOptions } from "pg-boss";
import type { Database } from "../db/client.ts";
import { createBoss, startBoss } from "./boss.ts";

/** Schedules run in Madrid time unless told otherwise. */
export const kernelTimeZone = "Europe/Madrid";

/** A queue's pg-boss options and its worker's options. */
export type QueueSpec = Omit<Queue, "name"> &
  Pick<WorkOptions, "batchSize" | "pollingIntervalSeconds" | "notifyPollingIntervalSeconds">;

export interface KernelJob<T> {
  /** The pg-boss job id ("inline" when jobs are off). */
  id: string;
  data: T;
  /** How many times pg-boss has retried this job (absent inline). */
  retryCount?: number;
}

/** One job's work. A batch (batchSize > 1) runs its jobs together; one failure fails the batch (pg-boss retries it). */
export type JobHandler<T> = (data: T, job: KernelJob<T>) => Promise<unknown>;

export interface Kernel {
  /** False when jobs are off (tests, in-memory runs): `send` runs handlers inline. */
  readonly enabled: boolean;
  /** True between start() and stop() (always false when jobs are off). */
  readonly started: boolean;
  /** Registers a queue and its worker (before start()). */
  queue<T extends object>(name: string, spec: QueueSpec, handler: JobHandler<T>): void;
  /** A cron schedule on a registered queue (stored once across instances, keyed by `key`). */
  schedule(name: string, cron: string, data: object | null, options: { key: string; tz?: string }): void;
  /** Removes a stored schedule at start (a schedule an older version left). */
  unschedule(name: string, key: string): void;
  /** Work once the queues, workers and schedules are in place (e.g. a first job); its failure is logged, not fatal. */
  afterStart(label: string, hook: () => Promise<unknown>): void;
  /** Work before pg-boss stops (e.g. clear a timer). */
  beforeStop(hook: () => unknown): void;
  /** Queues a job (resolves with its id; null when a singleton key or policy kept it out). Jobs off: runs it now. */
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  start(): Promise<void>;
  /** Gracefully: running jobs get up to 10 s. */
  stop(): Promise<void>;
}

/** What the kernel logs through (the app's logger, or ingestion's narrower one). */
export interface KernelLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface KernelOptions {
  database: Database;
  /** PostgreSQL: pg-boss gets a small pool of its own, for LISTEN/NOTIFY wake-ups. */
  databaseUrl?: string | undefined;
  log: KernelLog;
  /** Default true. */
  enabled?: boolean;
}

interface Registered {
  spec: QueueSpec;
  handler: JobHandler<object>;
}

export function createKernel(options: KernelOptions): Kernel {
  const { database, log } = options;
  const enabled = options.enabled ?? true;
  const queues = new Map<string, Registered>();
  const schedules: { name: string; cron: string; data: object | null; key: string; tz: string }[] = [];
  const unschedules: { name: string; key: string }[] = [];
  const afterStart: { label: string; hook: () => Promise<unknown> }[] = [];
  const beforeStop: (() => unknown)[] = [];
  let boss: PgBoss | undefined;
  let started = false;
  let starting: Promise<void> | undefined;

  const registered = (name: string): Registered => {
    const queue = queues.get(name);
    if (!queue) throw new Error(`job queue "${name}" is not registered`);
    return queue;
  };

  async function run(boss: PgBoss): Promise<void> {
    await startBoss(boss, log);
    for (const [name, { spec, handler }] of queues) {
      const { batchSize, pollingIntervalSeconds, notifyPollingIntervalSeconds, ...queueOptions } = spec;
      await boss.createQueue(name, queueOptions);
      // A queue created by an earlier build keeps its stored retry policy: the code's wins.
      const { retryLimit, retryDelay, retryBackoff, retryDelayMax } = queueOptions;
      if (retryLimit !== undefined)
        await boss.updateQueue(name, stripUndefined({ retryLimit, retryDelay, retryBackoff, retryDelayMax }));
      const work = { batchSize: batchSize ?? 1, pollingIntervalSeconds, notifyPollingIntervalSeconds };
      await boss.work<object>(name, stripUndefined(work), async (jobs) => {
        // allSettled: a failing job must not leave the others' work running unawaited.
        const results = await Promise.allSettled(jobs.map((job) => handler(job.data ?? {}, job)));
        const failed = results.find((result) => result.status === "rejected");
        if (failed) throw failed.reason;
      });
    }
    for (const { name, key } of unschedules) await boss.unschedule(name, key).catch(() => {});
    for (const s of schedules) await boss.schedule(s.name, s.cron, s.data, { tz: s.tz, key: s.key });
    started = true;
    for (const { label, hook } of afterStart) {
      await hook().catch((error: unknown) => log.error({ err: error }, `${label} failed to start`));
    }
    log.info({ queues: [...queues.keys()] }, "job kernel started");
  }

  return {
    enabled,
    get started() {
      return started;
    },
    queue(name, spec, handler) {
      if (queues.has(name)) throw new Error(`job queue "${name}" is registered twice`);
      queues.set(name, { spec, handler: handler as JobHandler<object> });
    },
    schedule(name, cron, data, { key, tz = kernelTimeZone }) {
      schedules.push({ name, cron, data, key, tz });
    },
    unschedule(name, key) {
      unschedules.push({ name, key });
    },
    afterStart(label, hook) {
      afterStart.push({ label, hook });
    },
    beforeStop(hook) {
      beforeStop.push(hook);
    },
    async send(name, data, sendOptions) {
      const queue = registered(name);
      if (!enabled) {
        await queue.handler(data, { id: "inline", data });
        return null;
      }
      if (!boss) throw new Error(`job queue "${name}" used before the kernel started`);
      return boss.send(name, data, sendOptions);
    },
    start() {
      // Nothing registered (e.g. ingestion with INGEST_SOURCES=none): pg-boss is not started.
      if (!enabled || queues.size === 0) return Promise.resolve();
      if (!starting) {
        const client = createBoss(database, options.databaseUrl);
        client.on("error", (error: unknown) => log.error({ err: error }, "job queue error"));
        boss = client;
        starting = run(client).catch(async (error: unknown) => {
          starting = undefined;
          await client.stop({ graceful: false }).catch(() => {});
          throw error;
        });
      }
      return starting;
    },
    async stop() {
      if (!started || !boss) return;
      started = false;
      starting = undefined;
      for (const hook of beforeStop) await hook();
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
