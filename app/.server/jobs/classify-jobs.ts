/**
 * Classification's background work on pg-boss (schema `pgboss`, as the other jobs):
 * `classify-reclassify` labels again every document whose labels came from other tables, rules
 * or model (queued at start and daily; one at a time across instances, batches take their rows
 * with SKIP LOCKED besides), and `topics-rematch` runs an organisation's topics over the whole
 * collection after an admin changed them (one queued and one running per organisation).
 */
import { PgBoss } from "pg-boss";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { bossDb, startBoss } from "./boss.ts";

export const CLASSIFY_QUEUES = { reclassify: "classify-reclassify", topics: "topics-rematch" } as const;

export interface ClassifyJobs {
  start(): Promise<void>;
  stop(): Promise<void>;
  queueReclassify(): Promise<void>;
  queueTopics(organizationId: string): Promise<void>;
}

export function createClassifyJobs(options: {
  database: Database;
  log: Logger;
  reclassify(): Promise<unknown>;
  rematch(organizationId: string): Promise<unknown>;
}): ClassifyJobs {
  const { database, log } = options;
  const boss = new PgBoss({
    db: bossDb(database),
    backend: database.kind === "pglite" ? "pglite" : "postgres",
    schema: "pgboss",
  });
  boss.on("error", (error: unknown) => log.error({ err: error }, "classification job queue error"));
  let started = false;
  return {
    async start() {
      if (started) return;
      await startBoss(boss, log);
      started = true;
      await boss.createQueue(CLASSIFY_QUEUES.reclassify, { policy: "singleton", retryLimit: 3, retryBackoff: true });
      await boss.createQueue(CLASSIFY_QUEUES.topics, { policy: "stately", retryLimit: 3, retryBackoff: true });
      await boss.work(CLASSIFY_QUEUES.reclassify, { batchSize: 1 }, async () => {
        const result = await options.reclassify();
        log.info({ result }, "documents reclassified");
      });
      await boss.work<{ organizationId: string }>(CLASSIFY_QUEUES.topics, { batchSize: 1 }, async ([job]) => {
        if (!job) return;
        const result = await options.rematch(job.data.organizationId);
        log.info({ organizationId: job.data.organizationId, result }, "organisation topics matched");
      });
      await boss.schedule(CLASSIFY_QUEUES.reclassify, "15 4 * * *", null, { tz: "Europe/Madrid", key: "daily" });
      await boss.send(CLASSIFY_QUEUES.reclassify, {});
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
    async queueReclassify() {
      await boss.send(CLASSIFY_QUEUES.reclassify, {});
    },
    async queueTopics(organizationId) {
      await boss.send(CLASSIFY_QUEUES.topics, { organizationId }, { singletonKey: organizationId });
    },
  };
}
