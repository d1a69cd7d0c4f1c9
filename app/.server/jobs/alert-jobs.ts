/**
 * The alerts' jobs on pg-boss (schema `pgboss`, as the ingestion jobs): matching of a stored
 * document (queue `alerts-match`, policy `stately` keyed by the document: at most one queued and one
 * running per document across instances; matchDocument is idempotent besides), the hourly digest
 * check (Europe/Madrid; each profile's own hour and zone decide) and the daily purge of old sent
 * deliveries. Schedules are stored once, whatever the instances.
 */
import { PgBoss } from "pg-boss";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { startBoss } from "./boss.ts";

export const ALERT_QUEUES = { match: "alerts-match", digests: "alerts-digests", purge: "alerts-purge" } as const;
const TZ = "Europe/Madrid";

export interface AlertJobs {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Queues matching of a stored document; resolves with the job id (null: already queued). */
  queueMatch(documentId: string): Promise<string | null>;
}

export function createAlertJobs(options: {
  database: Database;
  log: Logger;
  match(documentId: string): Promise<unknown>;
  digests(): Promise<number>;
  purge(): Promise<number>;
}): AlertJobs {
  const { database, log } = options;
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.query(text, values) },
    backend: database.kind === "pglite" ? "pglite" : "postgres",
    schema: "pgboss",
  });
  boss.on("error", (error: unknown) => log.error({ err: error }, "alert job queue error"));
  let started = false;
  return {
    async start() {
      if (started) return;
      await startBoss(boss, log);
      started = true;
      await boss.createQueue(ALERT_QUEUES.match, {
        policy: "stately",
        retryLimit: 5,
        retryDelay: 5,
        retryBackoff: true,
      });
      await boss.createQueue(ALERT_QUEUES.digests);
      await boss.createQueue(ALERT_QUEUES.purge);
      await boss.work<{ documentId: string }>(ALERT_QUEUES.match, { batchSize: 4 }, async (jobs) => {
        await Promise.all(
          jobs.map(async (job) => {
            const result = await options.match(job.data.documentId);
            log.debug({ documentId: job.data.documentId, result }, "document matched");
          }),
        );
      });
      await boss.work(ALERT_QUEUES.digests, { batchSize: 1 }, async () => {
        const stored = await options.digests();
        if (stored > 0) log.info({ stored }, "daily digests queued");
      });
      await boss.work(ALERT_QUEUES.purge, { batchSize: 1 }, async () => {
        const deleted = await options.purge();
        if (deleted > 0) log.info({ deleted }, "old sent deliveries purged");
      });
      await boss.schedule(ALERT_QUEUES.digests, "0 * * * *", null, { tz: TZ, key: "hourly" });
      await boss.schedule(ALERT_QUEUES.purge, "30 3 * * *", null, { tz: TZ, key: "daily" });
      log.info("alert jobs started");
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
    async queueMatch(documentId) {
      return boss.send(ALERT_QUEUES.match, { documentId }, { singletonKey: documentId });
    },
  };
}
