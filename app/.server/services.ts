/** The app's long-lived services: database, contact store, rate limiter, mail outbox worker. */
import path from "node:path";
import { type ApiServices, createApiServices } from "./api/service.ts";
import { setAuditSecret } from "./audit/ip-hash.ts";
import { purgeAuditEvents } from "./audit/retention.ts";
import { type AuthService, createAuthService } from "./auth/service.ts";
import { classify } from "./classify/classify.ts";
import type { Config } from "./config.ts";
import { createRateLimiter } from "./contact/rate-limit.ts";
import { type ContactService, createContactService } from "./contact/service.ts";
import { createContactStore } from "./contact/store.ts";
import type { AppServices } from "./context.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { createJobs, type IngestJobs } from "./jobs/ingest-jobs.ts";
import type { Logger } from "./logger.ts";
import { createMailTransport } from "./mail/transport.ts";
import { createOutboxWorker, defaultOutboxSettings, type OutboxWorker } from "./outbox/worker.ts";

export interface ServiceOptions {
  /** The committed SQL migrations (the project's drizzle/ folder). */
  migrationsDir: string;
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

export async function createServices(config: Config, log: Logger, options: ServiceOptions): Promise<Services> {
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
  const ingestJobs =
    options.inMemory || config.env === "test"
      ? undefined
      : createJobs({ database, config, log, classify: (doc) => classify(doc) });
  // --- end sources ---
  let contacts: ContactService | undefined;
  // --- audit trail and REST API (issue 10, branch audit) ---
  let api: ApiServices | undefined;
  // --- end audit ---
  // --- platform auth (issue 10, branch auth2) ---
  const auth: AuthService = createAuthService({ config, database, log });
  // --- end auth ---
  const services: AppServices = {
    config,
    log,
    get contacts(): ContactService {
      if (!contacts) throw new Error("services used before start()");
      return contacts;
    },
    get api(): ApiServices {
      if (!api) throw new Error("services used before start()");
      return api;
    },
    auth,
    ingestJobs,
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
      const applied = await migrate(database, options.migrationsDir);
      if (applied.length > 0) log.info({ applied }, "database migrations applied");
      const limiter = await createRateLimiter(config.rateLimit, database.pool);
      contacts = createContactService(store, limiter, () => worker.wake());
      // --- audit trail and REST API (issue 10, branch audit) ---
      // The IP-hash key: AUTH_SECRET (issue 10).
      setAuditSecret(config.authSecret);
      api = await createApiServices(config, database);
      // Daily in the jobs once they exist; for now once at start.
      const purged = await purgeAuditEvents(database.db, config.auditRetentionDays);
      if (purged.events > 0) log.info(purged, "audit events past retention purged");
      // --- end audit ---
      // --- platform auth (issue 10, branch auth2): setup link or PLATFORM_ADMIN_EMAIL's invitation ---
      await auth.firstRun();
      // --- end auth ---
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
