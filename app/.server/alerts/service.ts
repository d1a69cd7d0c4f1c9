/**
 * The alerts capability as the running server holds it: the real-time hub, the delivery worker,
 * matching (a job on the kernel per stored document; inline where jobs are off: tests, in-memory runs),
 * digests and the purge, and the open SSE streams (ended at shutdown so that it does not wait).
 */
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Kernel } from "../kernel/kernel.ts";
import type { Logger } from "../logger.ts";
import type { MailTransport } from "../mail/transport.ts";
import { type DeadlineSource, enqueueDueDigests } from "./channels/digest/index.ts";
import { databaseDirectory, databaseDocuments } from "./directory.ts";
import { type AlertHub, alertEventsResponse, createAlertHub } from "./events.ts";
import { registerAlertJobs } from "./jobs.ts";
import {
  type AlertDirectory,
  type DocumentLoader,
  type MatchResult,
  matchDocument,
  type OnMatched,
} from "./matching.ts";
import type { Lang } from "./profiles.ts";
import { createDeliveryWorker, type DeliveryWorker, deleteSentDeliveries } from "./worker.ts";

/** Sent deliveries are kept this long (dead ones stay until an admin retries them). */
export const sentDeliveryRetentionDays = 30;

export interface AlertsService {
  database: Database;
  directory: AlertDirectory;
  loadDocument: DocumentLoader;
  worker: DeliveryWorker;
  /** After start(). */
  readonly hub: AlertHub;
  /** Matching of a new or reclassified stored document: queued as a job, or run now when jobs are off. */
  queueMatch(documentId: string): Promise<void>;
  /** Matching now, in this process (tests, `npm run platform -- alerts:match`). */
  matchNow(documentId: string): Promise<MatchResult>;
  /** The queued digests due now (the hourly job's work). */
  enqueueDigests(now?: Date): Promise<number>;
  /** GET /app/events for a signed-in user. */
  events(userId: string, request: Request, locale?: Lang): Promise<Response>;
  /** Ends every open SSE stream (shutdown: the server's close does not wait for them). */
  closeStreams(): void;
  /** The hub and the delivery worker (the jobs start with the kernel). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createAlertsService(deps: {
  config: Config;
  database: Database;
  transport: MailTransport;
  log: Logger;
  /** The process's job kernel (jobs off in tests and in-memory runs: matching then runs inline). */
  kernel: Kernel;
  pollMs?: number | undefined;
  /** In each match's transaction, for the organisations it reaches (triage starts the document there). */
  onMatched?: OnMatched | undefined;
  /** A user's deadlines for the digest (triage). */
  deadlines?: DeadlineSource | undefined;
  /** More work on the digests' hourly schedule (triage's reminders); each returns how many it sent. */
  hourly?: ReadonlyArray<() => Promise<number>> | undefined;
}): AlertsService {
  const { config, database, log } = deps;
  const directory = databaseDirectory(database);
  const loadDocument = databaseDocuments(database);
  const worker = createDeliveryWorker({
    database,
    transport: deps.transport,
    mailFrom: config.mailFrom,
    siteUrl: config.siteUrl,
    settings: {
      retryBaseMs: config.alerts.retryBaseMs,
      retryMaxMs: config.alerts.retryMaxMs,
      maxAttempts: config.alerts.maxAttempts,
      retryWindowMs: config.alerts.retryWindowMs,
      allowPrivateUrls: config.alerts.allowPrivateWebhookUrls,
      ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
    },
    log,
  });
  const matchNow = async (documentId: string) => {
    const result = await matchDocument(database, documentId, { loadDocument, directory, onMatched: deps.onMatched });
    // The NOTIFY wakes every instance's worker; this one needs no round trip.
    if (result.deliveries > 0) worker.wake();
    return result;
  };
  const enqueueDigests = (now?: Date) =>
    enqueueDueDigests(database, {
      directory,
      from: config.mailFrom,
      siteUrl: config.siteUrl,
      ...(deps.deadlines ? { deadlines: deps.deadlines } : {}),
      ...(now ? { now } : {}),
    });
  const jobs = registerAlertJobs(deps.kernel, log, {
    match: matchNow,
    // The digests, then what else runs hourly (triage's reminders before due dates).
    digests: async () => {
      let sent = await enqueueDigests();
      for (const work of deps.hourly ?? []) sent += await work();
      return sent;
    },
    purge: () => deleteSentDeliveries(database, sentDeliveryRetentionDays),
  });
  const streams = new Set<AbortController>();
  let hub: AlertHub | undefined;
  let closing = false;

  return {
    database,
    directory,
    loadDocument,
    worker,
    get hub(): AlertHub {
      if (!hub) throw new Error("alerts used before start()");
      return hub;
    },
    async queueMatch(documentId) {
      await jobs.queueMatch(documentId);
    },
    matchNow,
    enqueueDigests,
    async events(userId, request, locale) {
      if (!hub || closing) return new Response("Service Unavailable", { status: 503, headers: { "retry-after": "3" } });
      // The stream ends when the client goes (the request's signal) or at shutdown (ours).
      const controller = new AbortController();
      const signal = AbortSignal.any([request.signal, controller.signal]);
      streams.add(controller);
      signal.addEventListener("abort", () => streams.delete(controller), { once: true });
      const scoped = new Request(request.url, { headers: request.headers, signal });
      return alertEventsResponse(hub, userId, scoped, locale ? { locale } : {});
    },
    closeStreams() {
      closing = true;
      for (const controller of streams) controller.abort();
      streams.clear();
    },
    async start() {
      hub = await createAlertHub(database, { databaseUrl: config.databaseUrl, log });
      hub.onDeliveriesQueued(() => worker.wake());
      worker.start();
    },
    /** After the kernel's stop (services.ts): no matching job queues deliveries any more. */
    async stop() {
      this.closeStreams();
      await worker.stop();
      await hub?.close();
    },
  };
}
