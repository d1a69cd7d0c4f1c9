/**
 * The delivery worker: the `deliveries` table as an outbox (kernel/outbox.ts: claim with FOR
 * UPDATE SKIP LOCKED and a lease, retries with exponential backoff and jitter, dead rows), sending
 * each row through its channel (looked up in channels/index.ts, the payload parsed by the
 * channel's schema); a row is dead after the limit (webhooks and mail: after their retry window, 24 h
 * by default), or at once on a permanent failure. A webhook delivery that runs out of its window marks
 * its webhook failing, in the same transaction (decision 0152). Channels that send many at once
 * (in-app) get a claimed batch together.
 */
import { eq, sql } from "drizzle-orm";
import type { Database, Db } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import { deliveries } from "../db/schema.ts";
import { faultPoint } from "../kernel/fault.ts";
import { createOutbox, createOutboxLoop } from "../kernel/outbox.ts";
import type { Logger } from "../logger.ts";
import type { MailTransport } from "../mail/transport.ts";
import { type OutboundFetch, type OutboundPolicy, OutboundRefused, outboundFetch } from "../net/outbound.ts";
import { registeredChannels, resolveDelivery } from "./channels/index.ts";
import { type Delivery, PermanentFailure, type SendContext } from "./channels/types.ts";
import { webhookRetryWindowMs } from "./channels/webhook/index.ts";
import { deliveriesChannel } from "./inbox.ts";

/** A webhook test delivery's match key starts so (webhooks.ts): it never marks its webhook failing. */
export const webhookTestKeyPrefix = "test:";

export interface DeliverySettings {
  retryBaseMs: number;
  retryMaxMs: number;
  /** Attempts before a delivery of a kind without a retry window (in-app, chat) is dead. */
  maxAttempts: number;
  /** How long webhook and mail deliveries are retried from their creation (or their re-queue). */
  retryWindowMs: number;
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
  retryWindowMs: webhookRetryWindowMs,
  pollMs: 500,
  leaseMs: 120_000,
  httpTimeoutMs: 10_000,
  batchSize: 32,
  allowPrivateUrls: false,
};

interface Claimed {
  id: string;
  match_key: string;
  channel: string;
  recipient: string;
  payload: unknown;
  attempts: number;
  give_up_at: Date | string | null;
  created_at: Date | string;
}

export interface DeliveryWorker {
  /** How long webhook and mail deliveries are retried (ALERTS_RETRY_WINDOW_MS): a re-queue gets this window. */
  readonly retryWindowMs: number;
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
    // Claimed (leased to this process), not yet sent: a fan-out killed half-way leaves these rows
    // in "sending" until their lease ends, then any instance takes them again.
    faultPoint("deliveries.claimed");
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

  /** When the row stops being retried: its give-up time, else its kind's window from its creation; undefined: counted in attempts. */
  function windowEnd(row: Claimed): number | undefined {
    if (row.give_up_at) return new Date(row.give_up_at).getTime();
    const resolved = resolveDelivery(row.channel, row.payload);
    if (resolved.ok && resolved.handler.retryWindow) return new Date(row.created_at).getTime() + settings.retryWindowMs;
    return undefined;
  }

  const outbox = createOutbox<Claimed>({
    database,
    table: "deliveries",
    columns: ["match_key", "channel", "recipient", "payload", "give_up_at", "created_at"],
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
      const giveUpAt = windowEnd(row);
      return giveUpAt !== undefined ? Date.now() + delay > giveUpAt : row.attempts >= maxAttempts(row);
    },
    async onDead(tx, row, error) {
      if (row.channel === "webhook" && !row.match_key.startsWith(webhookTestKeyPrefix))
        await markWebhookFailing(tx, row.recipient, error instanceof Error ? error.message : String(error));
    },
    sendBatch(rows, one) {
      const { batches, single } = split(rows);
      return [...single.map(one), ...batches.map((group) => processBatch(group, one))];
    },
  });

  const loop = createOutboxLoop({ outboxes: [outbox], pollMs: settings.pollMs, log, name: "delivery" });
  return { ...loop, retryWindowMs: settings.retryWindowMs };
}

/**
 * A webhook delivery is dead (its window ran out, or its address was refused): the webhook is marked
 * failing (its first failing time kept) and its other pending deliveries are held, in the
 * transaction that marks the row dead. An admin resumes it (webhooks.ts).
 */
export async function markWebhookFailing(tx: Db, webhookId: string, error: string): Promise<void> {
  const marked = await rowsOf<{ id: string }>(
    tx,
    sql`update webhooks set failing_since = coalesce(failing_since, now()), failing_error = ${error.slice(0, 500)}
        where id::text = ${webhookId} returning id`,
  );
  if (!marked.length) return; // deleted meanwhile
  await rowsOf(
    tx,
    sql`update deliveries set status = 'held', lease_until = null
        where channel = 'webhook' and recipient = ${webhookId} and status = 'pending'
          and match_key not like ${`${webhookTestKeyPrefix}%`}`,
  );
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

/** The delivery kinds retried for a window rather than a number of attempts (webhook, email, mail). */
function windowedKinds(): string[] {
  return [
    ...new Set(registeredChannels().flatMap((c) => c.deliveries.filter((d) => d.retryWindow).map((d) => d.kind))),
  ];
}

const windowFromNow = (windowMs: number) => sql`now() + (${windowMs}::bigint * interval '1 millisecond')`;

/**
 * For admins: queue dead deliveries of their organisation again (same ids; webhooks and mail get a
 * fresh retry window). A retried webhook delivery resumes its webhook if it was failing, and the
 * deliveries held meanwhile are queued with it.
 */
export async function retryDeadDeliveries(
  database: Database,
  organizationId: string,
  ids: string[],
  windowMs: number = webhookRetryWindowMs,
): Promise<number> {
  const valid = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (!valid.length) return 0;
  const windowed = windowedKinds();
  return database.db.transaction(async (tx) => {
    const rows = await rowsOf<{ channel: string; recipient: string }>(
      tx,
      sql`update deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = null,
            give_up_at = case when channel in (${sql.join(
              windowed.map((kind) => sql`${kind}`),
              sql`, `,
            )}) then ${windowFromNow(windowMs)} else null end
          where status = 'dead' and organization_id = ${organizationId}
            and id in (${sql.join(
              valid.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})
          returning channel, recipient`,
    );
    const hooks = [...new Set(rows.filter((row) => row.channel === "webhook").map((row) => row.recipient))];
    if (hooks.length) await resumeWebhooks(tx, organizationId, hooks, { windowMs, requeueDead: false });
    return rows.length;
  });
}

/**
 * Resumes webhooks of the organisation: their failing mark is cleared (and with `enable` their
 * disabled one); those now active get their held deliveries (and with `requeueDead` their dead
 * ones, tests aside) queued again with their ids and a fresh retry window. The webhook rows are
 * updated first: their lock orders this against a send that is holding a delivery (channels/webhook).
 * Returns the webhooks found and how many deliveries were queued.
 */
export async function resumeWebhooks(
  tx: Db,
  organizationId: string,
  webhookIds: string[],
  options: { windowMs: number; requeueDead: boolean; enable?: boolean },
): Promise<{ found: string[]; requeued: number }> {
  const ids = webhookIds.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (!ids.length) return { found: [], requeued: 0 };
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const found = await rowsOf<{ id: string; active: boolean }>(
    tx,
    sql`update webhooks set failing_since = null, failing_error = null
          ${options.enable ? sql`, disabled_at = null` : sql``}
        where organization_id = ${organizationId} and id in (${list})
        returning id::text as id, disabled_at is null as active`,
  );
  const active = found.filter((row) => row.active).map((row) => row.id);
  if (!active.length) return { found: found.map((row) => row.id), requeued: 0 };
  const requeued = await rowsOf(
    tx,
    sql`update deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = null,
          give_up_at = ${windowFromNow(options.windowMs)}
        where channel = 'webhook' and recipient in (${sql.join(
          active.map((id) => sql`${id}`),
          sql`, `,
        )})
          and status in (${options.requeueDead ? sql`'held', 'dead'` : sql`'held'`})
          and match_key not like ${`${webhookTestKeyPrefix}%`}
        returning id`,
  );
  if (requeued.length) await tx.execute(sql`select pg_notify(${deliveriesChannel}, '')`);
  return { found: found.map((row) => row.id), requeued: requeued.length };
}

/** Retention: sent deliveries older than `days` are deleted (dead ones stay for admins to see). */
export async function deleteSentDeliveries(database: Database, days: number): Promise<number> {
  const rows = await database.rows(sql`
    delete from deliveries where status = 'sent' and created_at < now() - (${days}::int * interval '1 day') returning id`);
  return rows.length;
}
