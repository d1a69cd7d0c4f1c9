/**
 * The alerts' jobs on the kernel: matching of a stored document (queue `alerts-match`, policy
 * `stately` keyed by the document: at most one queued and one running per document across
 * instances, woken by NOTIFY; matchDocument is idempotent besides), the hourly digest check
 * (Europe/Madrid; each profile's own hour and zone decide) and the daily purge of old sent
 * deliveries. Schedules are stored once, whatever the instances. Jobs off: matching runs inline.
 */
import type { Database } from "../db/client.ts";
import { createKernel, type Kernel } from "../kernel/kernel.ts";
import type { Logger } from "../logger.ts";

export const ALERT_QUEUES = { match: "alerts-match", digests: "alerts-digests", purge: "alerts-purge" } as const;

export interface AlertJobHandlers {
  match(documentId: string): Promise<unknown>;
  digests(): Promise<number>;
  purge(): Promise<number>;
}

/** Registers the alerts' queues and schedules; returns how to queue matching. */
export function registerAlertJobs(kernel: Kernel, log: Logger, handlers: AlertJobHandlers) {
  kernel.queue<{ documentId: string }>(
    ALERT_QUEUES.match,
    {
      policy: "stately",
      notify: true,
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      batchSize: 4,
      pollingIntervalSeconds: 1,
      notifyPollingIntervalSeconds: 5,
    },
    async ({ documentId }) => {
      const result = await handlers.match(documentId);
      log.debug({ documentId, result }, "document matched");
    },
  );
  kernel.queue(ALERT_QUEUES.digests, {}, async () => {
    const stored = await handlers.digests();
    if (stored > 0) log.info({ stored }, "daily digests queued");
  });
  kernel.queue(ALERT_QUEUES.purge, {}, async () => {
    const deleted = await handlers.purge();
    if (deleted > 0) log.info({ deleted }, "old sent deliveries purged");
  });
  kernel.schedule(ALERT_QUEUES.digests, "0 * * * *", null, { key: "hourly" });
  // And once at start: a run a stop cut short (or an hour the server was down) is finished now,
  // not at the next hour (digests and reminders are stored once whatever runs them, so no
  // singleton key: the killed run's job still looks active; decision 0156).
  kernel.afterStart("alerts: digests and reminders due", () => kernel.send(ALERT_QUEUES.digests, {}));
  kernel.schedule(ALERT_QUEUES.purge, "30 3 * * *", null, { key: "daily" });
  return {
    /** Queues matching of a stored document; resolves with the job id (null: already queued, or run inline). */
    queueMatch: (documentId: string) => kernel.send(ALERT_QUEUES.match, { documentId }, { singletonKey: documentId }),
  };
}

export interface AlertJobs {
  start(): Promise<void>;
  stop(): Promise<void>;
  queueMatch(documentId: string): Promise<string | null>;
}

/** The alerts' jobs on a kernel of their own (tests, tools). */
export function createAlertJobs(
  options: { database: Database; databaseUrl?: string | undefined; log: Logger } & AlertJobHandlers,
): AlertJobs {
  const kernel = createKernel(options);
  const { queueMatch } = registerAlertJobs(kernel, options.log, options);
  return { start: () => kernel.start(), stop: () => kernel.stop(), queueMatch };
}
