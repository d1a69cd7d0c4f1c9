/** The process's long-lived services: database, contact store, rate limiter, mail outbox worker. */
import path from "node:path";
import { type ApiServices, createApiServices } from "../app/.server/api/service.ts";
import { setAuditSecret } from "../app/.server/audit/ip-hash.ts";
import { purgeAuditEvents } from "../app/.server/audit/retention.ts";
import type { Config } from "../app/.server/config.ts";
import { createRateLimiter } from "../app/.server/contact/rate-limit.ts";
import { type ContactService, createContactService } from "../app/.server/contact/service.ts";
import { createContactStore } from "../app/.server/contact/store.ts";
import type { AppServices } from "../app/.server/context.ts";
import { type Database, openDatabase } from "../app/.server/db/client.ts";
import { migrate } from "../app/.server/db/migrate.ts";
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
  let contacts: ContactService | undefined;
  // --- audit trail and REST API (issue 10, branch audit) ---
  let api: ApiServices | undefined;
  // --- end audit ---
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
  };

  let readyAt = 0;
  let ready: Promise<boolean> = Promise.resolve(false);
  let started = false;
  let stopped = false;

  return {
    services,
    database,
    worker,
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
      // --- audit trail and REST API (issue 10, branch audit) ---
      // The IP-hash key: AUTH_SECRET once the auth branch adds it (lead: switch at merge).
      setAuditSecret(config.formSecret);
      api = await createApiServices(config, database);
      // Daily in the jobs once they exist; for now once at start.
      const purged = await purgeAuditEvents(database.db, config.auditRetentionDays);
      if (purged.events > 0) log.info(purged, "audit events past retention purged");
      // --- end audit ---
      worker.start();
      started = true;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await worker.stop();
      await database.close();
    },
  };
}
