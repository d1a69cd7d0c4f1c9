/** The process's long-lived services: database, contact store, rate limiter, mail outbox worker. */
import path from "node:path";
import type { Config } from "../app/.server/config.ts";
import { createRateLimiter } from "../app/.server/contact/rate-limit.ts";
import { type ContactService, createContactService } from "../app/.server/contact/service.ts";
import { createContactStore } from "../app/.server/contact/store.ts";
import type { AppServices } from "../app/.server/context.ts";
import { type Database, openDatabase } from "../app/.server/db/client.ts";
import { migrate } from "../app/.server/db/migrate.ts";
import { createJobs, type IngestJobs } from "../app/.server/jobs/ingest-jobs.ts";
import type { Logger } from "../app/.server/logger.ts";
import { createMailTransport } from "../app/.server/mail/transport.ts";
import { createOutboxWorker, defaultOutboxSettings, type OutboxWorker } from "../app/.server/outbox/worker.ts";

export const migrationsDir = path.resolve(import.meta.dirname, "../drizzle");

export interface ServiceOptions {
  /** Keep PGlite in memory instead of DATA_DIR/db (tests). */
  inMemory?: boolean;
  /** Poll interval of the outbox worker. */
  pollMs?: number;
}

export interface Services {
  services: AppServices;
  database: Database;
  worker: OutboxWorker;
  /** False while the database cannot be reached (cached for about a second). */
  isReady(): Promise<boolean>;
  /** Ingestion jobs (issue 11): undefined in tests and in-memory runs; runSourceNow backs POST /api/v1/sources/{id}/run. */
  ingestJobs: IngestJobs | undefined;
  /** Migrations, then the outbox worker. */
  start(): Promise<void>;
  /** The worker after its current send, then the database. */
  stop(): Promise<void>;
}

export async function createServices(config: Config, log: Logger, options: ServiceOptions = {}): Promise<Services> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: options.inMemory ? undefined : path.join(config.dataDir, "db"),
  });
  const store = createContactStore(database, config.formSecret);
  const transport = createMailTransport({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, log });
  const worker = createOutboxWorker({
    database,
    store,
    transport,
    mail: { from: config.mailFrom, to: config.mailTo, siteUrl: config.siteUrl },
    settings: {
      ...defaultOutboxSettings,
      ...config.outbox,
      pollMs: options.pollMs ?? defaultOutboxSettings.pollMs,
      retentionDays: config.leadRetentionDays,
    },
    log,
  });
  // --- sources: ingestion jobs (issue 11; the lead moves this block) ---
  // Off in tests and in-memory runs so that no test polls the real sources.
  const ingestJobs = options.inMemory || config.env === "test" ? undefined : createJobs({ database, config, log });
  // --- end sources ---
  let contacts: ContactService | undefined;
  const services: AppServices = {
    config,
    log,
    get contacts(): ContactService {
      if (!contacts) throw new Error("services used before start()");
      return contacts;
    },
  };

  let readyAt = 0;
  let ready: Promise<boolean> = Promise.resolve(false);
  let started = false;
  let stopped = false;

  return {
    services,
    database,
    worker,
    ingestJobs,
    isReady() {
      if (!started || stopped) return Promise.resolve(false);
      if (Date.now() - readyAt > 1000) {
        readyAt = Date.now();
        ready = database.ping(500);
      }
      return ready;
    },
    async start() {
      const applied = await migrate(database, migrationsDir);
      if (applied.length > 0) log.info({ applied }, "database migrations applied");
      const limiter = await createRateLimiter(config.rateLimit, database.pool);
      contacts = createContactService(store, limiter, () => worker.wake());
      worker.start();
      // --- sources: ingestion jobs never stop the site from starting ---
      await ingestJobs?.start().catch((error: unknown) => log.error({ err: error }, "ingestion jobs failed to start"));
      // --- end sources ---
      started = true;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await worker.stop();
      await ingestJobs?.stop().catch(() => {}); // sources
      await database.close();
    },
  };
}
