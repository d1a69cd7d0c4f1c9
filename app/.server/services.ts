/** The app's long-lived services: database, job kernel, contact store, rate limiter, mail outbox worker, alerts (hub, delivery worker), classification, ingestion. */
import type { Server } from "node:net";
import path from "node:path";
import { databaseDirectory } from "./alerts/directory.ts";
import { type AlertsService, createAlertsService } from "./alerts/service.ts";
import { type ApiServices, createApiServices } from "./api/service.ts";
import { auditHeadsMigration, signUnsignedAuditRows } from "./audit/head.ts";
import { setAuditSecret } from "./audit/ip-hash.ts";
import { purgeAuditEvents } from "./audit/retention.ts";
import { setAuditRetentionDays } from "./audit/verify.ts";
import { type AuthService, createAuthService } from "./auth/service.ts";
import { classify } from "./classify/classify.ts";
import { createClassifyService } from "./classify/service.ts";
import type { Config } from "./config.ts";
import { createRateLimiter } from "./contact/rate-limit.ts";
import { type ContactService, createContactService } from "./contact/service.ts";
import { createContactStore } from "./contact/store.ts";
import type { AppServices } from "./context.ts";
import { startOpsSocket, stopOpsSocket } from "./db/backup.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { type DiskWatch, watchDiskSpace } from "./db/disk-space.ts";
import { migrate } from "./db/migrate.ts";
import { createKernel, type Kernel } from "./kernel/kernel.ts";
import { defineDocumentEvents, subscribeDocumentPipeline } from "./kernel/pipeline.ts";
import { configureLawAlerts, finishLawAlerts, lawAlertsFor, lawDocumentStored } from "./laws/service.ts";
import type { Logger } from "./logger.ts";
import { createMailTransport } from "./mail/transport.ts";
import { createOutboxWorker, defaultOutboxSettings, type OutboxWorker } from "./outbox/worker.ts";
import { handOverPending } from "./sources/ingest.ts";
import { createJobs, type IngestJobs } from "./sources/jobs.ts";
import { createSampleLoader } from "./sources/sample.ts";
import { registerSsoJobs } from "./sso/jobs.ts";
import { digestDeadlines } from "./triage/digest-deadlines.ts";
import { configureReviewLinks } from "./triage/law-anchors.ts";
import { runReminders } from "./triage/reminders.ts";
import { startTriage } from "./triage/store.ts";

export interface ServiceOptions {
  /** The committed SQL migrations (the project's drizzle/ folder). */
  migrationsDir: string;
  /** Keep PGlite in memory instead of DATA_DIR/db (tests). */
  inMemory?: boolean;
  /** Poll interval of the outbox worker. */
  pollMs?: number;
  /** The recorded sample's folder (default: the fixtures); tests of the loading flow use a smaller one. */
  sampleRoot?: string;
}

export interface Services {
  services: AppServices;
  database: Database;
  worker: OutboxWorker;
  /** False while the database cannot be reached (cached for about a second). */
  isReady(): Promise<boolean>;
  /** Why writes are refused now ("disk-full": the embedded database's disk is nearly full), or undefined. */
  writesRefused(): "disk-full" | undefined;
  /** Alerts: the hub behind /app/events, the delivery worker, matching (also on services.alerts). */
  alerts: AlertsService;
  /** Ingestion jobs (issue 11): undefined in tests and in-memory runs; runSourceNow backs POST /api/v1/sources/{id}/run. */
  ingestJobs: IngestJobs | undefined;
  /** The process's one job kernel (pg-boss): every capability's queues and schedules. */
  kernel: Kernel;
  /** Migrations, then the outbox worker, the alerts and the jobs. */
  start(): Promise<void>;
  /** Shutdown has begun: end the long-lived answers (SSE) so that the HTTP server can close. */
  closeStreams(): void;
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
  // Jobs (pg-boss) are off in tests and in-memory runs: no test polls the real sources, and
  // queued work (matching, the pipeline's events) then runs inline, in the caller.
  const jobsOn = !options.inMemory && config.env !== "test";
  const kernel = createKernel({ database, databaseUrl: config.databaseUrl, log, enabled: jobsOn });
  // What follows a stored document, in order: kernel/pipeline.ts.
  const events = defineDocumentEvents(kernel, log);
  const documentStored = (documentId: string, isNew: boolean) => events.documentStored.publish({ documentId, isNew });
  // --- alerts (issue 13): hub, delivery worker, matching, digests, purge ---
  configureLawAlerts({ siteUrl: config.siteUrl, mailFrom: config.mailFrom }); // laws (issue 25)
  configureReviewLinks(config.siteUrl); // obligations anchored to a law's article (issue 39)
  const alerts = createAlertsService({
    config,
    database,
    transport,
    log,
    kernel,
    pollMs: options.pollMs,
    // Triage (issue 26): documents an alert brings start as "new"; deadlines in the digest; reminders hourly.
    onMatched: startTriage,
    deadlines: digestDeadlines,
    hourly: [async () => (await runReminders(database, config)).reminders],
  });
  // --- end alerts ---
  // Reclassification and organisations' topics (issue 12).
  const classification = createClassifyService({
    database,
    log,
    kernel,
    onLabelsChanged: (documentId) => events.labelsChanged.publish({ documentId }),
  });
  subscribeDocumentPipeline(events, {
    classification,
    alerts,
    laws: { documentStored: (documentId) => lawDocumentStored(database, documentId, databaseDirectory(database)) },
  });
  // --- sources: ingestion jobs (issue 11; the lead moves this block) ---
  const ingestJobs = jobsOn
    ? createJobs({
        database,
        config,
        log,
        kernel,
        classify: (doc) => classify(doc),
        onDocument: documentStored,
        // The law sources record changes; the laws capability alerts their followers.
        lawAlerts: lawAlertsFor(database, databaseDirectory(database)),
      })
    : undefined;
  // The bundled recorded sample, loaded in the background on an admin's request (setup, Sources page).
  const sampleLawAlerts = lawAlertsFor(database, databaseDirectory(database));
  const sample = createSampleLoader({
    database,
    log,
    classify: (doc) => classify(doc),
    onDocument: documentStored,
    // The sample law's recorded change and the day replayed as today reach the requesters' follow and profile (issue 39).
    lawAlerts: sampleLawAlerts,
    matching: { lawChanged: (id) => sampleLawAlerts.changed(id), documentStored: (id) => alerts.matchNow(id) },
    maxFollows: config.alerts.maxFollowsPerOrganization,
    ...(options.sampleRoot ? { root: options.sampleRoot } : {}),
  });
  // --- end sources ---
  let contacts: ContactService | undefined;
  // --- audit trail and REST API (issue 10, branch audit) ---
  let api: ApiServices | undefined;
  // --- end audit ---
  // --- platform auth (issue 10, branch auth2) ---
  const auth: AuthService = createAuthService({ config, database, log });
  // SAML providers set up by metadata URL follow their IdP's certificate rolls (decision 0163).
  registerSsoJobs(kernel, log, { refreshAll: () => auth.refreshAllSamlMetadata() });
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
    alerts,
    classification,
    ingestJobs,
    sample,
  };

  let opsSocket: Server | undefined;
  // The embedded database's disk (decision 0157); PostgreSQL's disk is its server's to watch.
  let disk: DiskWatch | undefined;
  let readyAt = 0;
  let ready: Promise<boolean> = Promise.resolve(false);
  let started = false;
  let stopped = false;

  return {
    services,
    database,
    worker,
    alerts,
    ingestJobs,
    kernel,
    closeStreams() {
      alerts.closeStreams();
    },
    writesRefused() {
      return disk?.low ? "disk-full" : undefined;
    },
    isReady() {
      if (!started || stopped) return Promise.resolve(false);
      if (Date.now() - readyAt > 1000) {
        readyAt = Date.now();
        ready = database.ping(500);
      }
      return ready;
    },
    async start() {
      // Embedded database: backups while running, and a refusal to open it from a second process.
      if (!options.inMemory) opsSocket = await startOpsSocket(database, config.dataDir, log);
      if (!options.inMemory && database.kind === "pglite") {
        disk = watchDiskSpace({ dir: path.join(config.dataDir, "db"), minFreeBytes: config.diskMinFreeBytes, log });
        await disk.check();
      }
      const applied = await migrate(database, options.migrationsDir);
      if (applied.length > 0) log.info({ applied }, "database migrations applied");
      const limiter = await createRateLimiter(config.rateLimit, database.pool);
      contacts = createContactService(store, limiter, () => worker.wake());
      // --- audit trail and REST API (issue 10, branch audit) ---
      // The IP-hash key: AUTH_SECRET (issue 10).
      setAuditSecret(config.authSecret);
      setAuditRetentionDays(config.auditRetentionDays);
      // Chains written before signed heads existed: signed by the start that added them (decision 0084).
      if (applied.includes(auditHeadsMigration)) await signUnsignedAuditRows(database.db);
      api = await createApiServices(config, database);
      // Daily in the jobs once they exist; for now once at start.
      const purged = await purgeAuditEvents(database.db, config.auditRetentionDays);
      if (purged.events > 0) log.info(purged, "audit events past retention purged");
      // --- end audit ---
      // --- platform auth (issue 10, branch auth2): setup link or PLATFORM_ADMIN_EMAIL's invitation ---
      await auth.firstRun();
      // --- end auth ---
      worker.start();
      await alerts.start();
      // Every capability's queues, workers and schedules (a capability's first jobs failing is logged, not fatal).
      await kernel.start();
      // Documents a killed process stored without handing them to the pipeline (decision 0145).
      await handOverPending(database, documentStored, log).catch((error: unknown) =>
        log.error({ err: error }, "handing over pending documents failed"),
      );
      // What a killed process left of law alerts: versions written and not recorded as a change
      // (decision 0162), changes not matched, matches without their deliveries (between the law
      // alert's two phases): finished now, not at the next law poll (decision 0156).
      await finishLawAlerts(database, databaseDirectory(database))
        .then((done) => {
          if (done.changes + done.matched + done.deliveries > 0)
            log.info(done, "law alerts left half-way by a stop finished");
        })
        .catch((error: unknown) => log.error({ err: error }, "finishing law alerts failed"));
      started = true;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      alerts.closeStreams();
      // The sample load and the jobs first (they queue matching), then the delivery workers after their current sends, the hub.
      await sample.stop().catch(() => {}); // sources: the sample load stops after its current day
      await kernel.stop().catch((error: unknown) => log.warn({ err: error }, "job kernel did not stop cleanly"));
      await Promise.all([worker.stop(), alerts.stop()]);
      await stopOpsSocket(opsSocket);
      disk?.stop();
      await database.close();
    },
  };
}
