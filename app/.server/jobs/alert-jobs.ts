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
  /** PostgreSQL: pg-boss gets a small pool of its own there, for LISTEN/NOTIFY job wake-ups. */
  databaseUrl?: string | undefined;
  log: Logger;
  match(documentId: string): Promise<unknown>;
  digests(): Promise<number>;
  purge(): Promise<number>;
}): AlertJobs {
  const { database, log } = options;
  // Matching jobs wake workers by NOTIFY (a new document's alerts are due in seconds, not at the next
  // poll): on PostgreSQL through pg-boss's own small pool, on PGlite through its in-process listen.
  const pglite = (
    database.db as unknown as {
      $client: {
        listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>>;
        exec(text: string): Promise<{ rows: unknown[] }[]>;
      };
    }
  ).$client;
  const boss =
    database.kind === "postgres" && options.databaseUrl
      ? new PgBoss({ connectionString: options.databaseUrl, max: 3, schema: "pgboss", useListenNotify: true })
      : new PgBoss({
          db: {
            // pg-boss needs the rows of every statement of a multi-statement query, as the pg driver
            // gives them (its maintenance asserts it); Database.query keeps only the last one's.
            executeSql: async (text: string, values?: unknown[]) =>
              database.kind === "pglite" && !values?.length
                ? { rows: (await pglite.exec(text)).flatMap((result) => result.rows) }
                : database.query(text, values),
            ...(database.kind === "pglite"
              ? {
                  async listen(channel: string, onNotification: (payload: string) => void, onReconnect: () => void) {
                    const unlisten = await pglite.listen(channel, onNotification);
                    onReconnect();
                    return { close: () => unlisten() };
                  },
                }
              : {}),
          },
          backend: database.kind === "pglite" ? "pglite" : "postgres",
          schema: "pgboss",
          useListenNotify: database.kind === "pglite",
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
        notify: true,
        retryLimit: 5,
        retryDelay: 5,
        retryBackoff: true,
      });
      await boss.createQueue(ALERT_QUEUES.digests);
      await boss.createQueue(ALERT_QUEUES.purge);
      await boss.work<{ documentId: string }>(
        ALERT_QUEUES.match,
        { batchSize: 4, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 5 },
        async (jobs) => {
          await Promise.all(
            jobs.map(async (job) => {
              const result = await options.match(job.data.documentId);
              log.debug({ documentId: job.data.documentId, result }, "document matched");
            }),
          );
        },
      );
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
