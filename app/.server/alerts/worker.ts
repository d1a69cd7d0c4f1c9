/**
 * The delivery worker: the `deliveries` table as an outbox (kernel/outbox.ts: claim with FOR
 * UPDATE SKIP LOCKED and a lease, retries with exponential backoff and jitter, dead rows), sending
 * each row through its channel (looked up in channels/index.ts, the payload parsed by the
 * channel's schema); a row is dead after the limit (webhooks: after their 24 h window), or at once
 * on a permanent failure. Channels that send many at once (in-app) get a claimed batch together.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { deliveries } from "../db/schema.ts";
import { faultPoint } from "../kernel/fault.ts";
import { createOutbox, createOutboxLoop, retryDeadRows } from "../kernel/outbox.ts";
import type { Logger } from "../logger.ts";
import type { MailTransport } from "../mail/transport.ts";
import { type OutboundFetch, type OutboundPolicy, OutboundRefused, outboundFetch } from "../net/outbound.ts";
import { resolveDelivery } from "./channels/index.ts";
import { type Delivery, PermanentFailure, type SendContext } from "./channels/types.ts";
import { webhookRetryWindowMs } from "./channels/webhook/index.ts";

export interface DeliverySettings {
  retryBaseMs: number;
  retryMaxMs: number;
  /** Attempts before a non-webhook delivery is dead. */
  maxAttempts: number;
  pollMs: number;
  leaseMs: number;
  /** Timeout of one chat or webhook POST. */
  httpTimeoutMs: number;
  batchSize: number;
  /** Let chat and webhook POSTs reach loopback/private addresses (WEBHOOKS_ALLOW_PRIVATE_URLS; tests only). */
  allowPrivateUrls: boolean;
}

export const defaultDeliverySettings: DeliverySettings = {
  retryBaseMs: 5000,
  retryMaxMs: 30 * 60_000,
  maxAttempts: 12,
  pollMs: 500,
  leaseMs: 120_000,
  httpTimeoutMs: 10_000,
  batchSize: 32,
  allowPrivateUrls: false,
};

interface Claimed {
  id: string;
  channel: string;
  recipient: string;
  payload: unknown;
  attempts: number;
  give_up_at: Date | string | null;
}

export interface DeliveryWorker {
  start(): void;
  drain(): Promise<number>;
  wake(): void;
  stop(): Promise<void>;
}

/** Largest receiver answer read (only its status matters). */
const maxAnswerBytes = 64 * 1024;

/** POSTs through the outbound guard: checked address, no redirects; a refused address is permanent. */
async function post(
  send: OutboundFetch,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<void> {
  let response: Response;
  try {
    response = await send(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof OutboundRefused) throw new PermanentFailure(error.message);
    throw error;
  }
  if (response.status < 200 || response.status > 299) throw new Error(`HTTP ${response.status}`);
}

export function createDeliveryWorker(deps: {
  database: Database;
  transport: MailTransport;
  mailFrom: string;
  siteUrl: string;
  settings?: Partial<DeliverySettings>;
  log: Logger;
  /** Tests: a DNS stand-in (and which addresses count as public) for the outbound guard. */
  outbound?: Pick<OutboundPolicy, "resolve" | "forbidden">;
}): DeliveryWorker {
  const { database } = deps;
  const settings = { ...defaultDeliverySettings, ...deps.settings };
  const log = deps.log.child({ component: "deliveries" });
  const send = outboundFetch(
    { ...deps.outbound, allowPrivate: settings.allowPrivateUrls },
    { maxBytes: maxAnswerBytes, maxRedirects: 0, timeoutMs: settings.httpTimeoutMs },
  );

  const context: SendContext = {
    database,
    transport: deps.transport,
    mailFrom: deps.mailFrom,
    siteUrl: deps.siteUrl,
    post: (url, body, headers = {}) => post(send, url, body, headers, settings.httpTimeoutMs),
    log,
  };

  function asDelivery(row: Claimed): Delivery {
    return { id: row.id, kind: row.channel, recipient: row.recipient, attempts: row.attempts };
  }

  async function markSent(id: string): Promise<void> {
    await database.db
      .update(deliveries)
      .set({ status: "sent", sentAt: new Date(), leaseUntil: null, lastError: null })
      .where(eq(deliveries.id, id));
  }

  async function deliver(row: Claimed): Promise<void> {
    const resolved = resolveDelivery(row.channel, row.payload);
    if (!resolved.ok) throw new PermanentFailure(resolved.reason);
    const outcome = await resolved.handler.send(resolved.payload, context, asDelivery(row));
    // Sent, not yet marked: a process killed here sends the row again after its lease, same id.
    faultPoint("deliveries.sent");
    if (outcome !== "committed") await markSent(row.id);
  }

  /**
   * Claimed rows of a kind whose channel sends many at once (in-app: their alerts in one insert,
   * one NOTIFY per new alert, the rows marked sent, in one transaction). Any failure falls back to
   * the rows one by one, each with its own retry.
   */
  async function processBatch(rows: Claimed[], one: (row: Claimed) => Promise<void>): Promise<void> {
    const items = rows.map((row) => ({ row, resolved: resolveDelivery(row.channel, row.payload) }));
    const first = items[0]?.resolved;
    const handler = first?.ok ? first.handler : undefined;
    const batch = items.flatMap(({ row, resolved }) =>
      resolved.ok && resolved.handler === handler ? [{ payload: resolved.payload, delivery: asDelivery(row) }] : [],
    );
    if (!handler?.sendBatch || batch.length !== rows.length) {
      await Promise.all(rows.map(one));
      return;
    }
    try {
      await handler.sendBatch(batch, context);
    } catch (error) {
      log.warn({ err: error, rows: rows.length, channel: handler.kind }, "batch failed; delivering one by one");
      await Promise.all(rows.map(one));
    }
  }

  /** The claimed rows whose kind sends in batches, grouped by kind; the rest one by one. */
  function split(rows: Claimed[]): { batches: Claimed[][]; single: Claimed[] } {
    const byKind = new Map<string, Claimed[]>();
    const single: Claimed[] = [];
    for (const row of rows) {
      const resolved = resolveDelivery(row.channel, row.payload);
      if (resolved.ok && resolved.handler.sendBatch) byKind.set(row.channel, [...(byKind.get(row.channel) ?? []), row]);
      else single.push(row);
    }
    const batches: Claimed[][] = [];
    for (const group of byKind.values()) {
      if (group.length > 1) batches.push(group);
      else single.push(...group);
    }
    return { batches, single };
  }

  /** The channel's own limit, else the worker's. */
  function maxAttempts(row: Claimed): number {
    const resolved = resolveDelivery(row.channel, row.payload);
    return (resolved.ok ? resolved.handler.maxAttempts : undefined) ?? settings.maxAttempts;
  }

  const outbox = createOutbox<Claimed>({
    database,
    table: "deliveries",
    columns: ["channel", "recipient", "payload", "give_up_at"],
    settings,
    log,
    what: "delivery",
    logSent: false,
    describe: (row) => ({ deliveryId: row.id, channel: row.channel }),
    async send(row) {
      await deliver(row);
      return "handled"; // deliver() marks the row sent (in-app: in the alert's transaction)
    },
    isDead(row, error, delay) {
      if (error instanceof PermanentFailure) return true;
      const giveUpAt = row.give_up_at ? new Date(row.give_up_at).getTime() : undefined;
      return giveUpAt !== undefined ? Date.now() + delay > giveUpAt : row.attempts >= maxAttempts(row);
    },
    sendBatch(rows, one) {
      const { batches, single } = split(rows);
      return [...single.map(one), ...batches.map((group) => processBatch(group, one))];
    },
  });

  return createOutboxLoop({ outboxes: [outbox], pollMs: settings.pollMs, log, name: "delivery" });
}

export interface FailedDelivery {
  id: string;
  channel: string;
  recipient: string;
  status: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
}

/** For admins: an organisation's deliveries that failed at least once (retrying) or are dead, newest first. */
export async function failedDeliveries(
  database: Database,
  organizationId: string,
  limit = 100,
): Promise<FailedDelivery[]> {
  return database.db
    .select({
      id: deliveries.id,
      channel: deliveries.channel,
      recipient: deliveries.recipient,
      status: deliveries.status,
      attempts: deliveries.attempts,
      lastError: deliveries.lastError,
      nextAttemptAt: deliveries.nextAttemptAt,
      createdAt: deliveries.createdAt,
    })
    .from(deliveries)
    .where(
      sql`${deliveries.organizationId} = ${organizationId} and (${deliveries.status} = 'dead' or (${deliveries.status} <> 'sent' and ${deliveries.lastError} is not null))`,
    )
    .orderBy(sql`${deliveries.createdAt} desc`)
    .limit(limit);
}

/** For admins: queue dead deliveries of their organisation again (webhooks get a fresh 24 h window). */
export async function retryDeadDeliveries(database: Database, organizationId: string, ids: string[]): Promise<number> {
  const valid = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (!valid.length) return 0;
  return retryDeadRows(database, "deliveries", {
    set: sql`give_up_at = case when channel = 'webhook' then now() + (${webhookRetryWindowMs}::bigint * interval '1 millisecond') else null end`,
    where: sql`organization_id = ${organizationId} and id in (${sql.join(
      valid.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  });
}

/** Retention: sent deliveries older than `days` are deleted (dead ones stay for admins to see). */
export async function deleteSentDeliveries(database: Database, days: number): Promise<number> {
  const rows = await database.rows(sql`
    delete from deliveries where status = 'sent' and created_at < now() - (${days}::int * interval '1 day') returning id`);
  return rows.length;
}
