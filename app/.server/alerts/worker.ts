/**
 * The delivery worker: the `deliveries` table as an outbox (kernel/outbox.ts: claim with FOR
 * UPDATE SKIP LOCKED and a lease, retries with exponential backoff and jitter, dead rows), sending
 * each row on its channel; a row is dead after the limit (webhooks: after their 24 h window), or at
 * once on a permanent failure. A claimed batch's in-app rows are written in one transaction.
 */
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Database } from "../db/client.ts";
import { deliveries, webhooks } from "../db/schema.ts";
import { createOutbox, createOutboxLoop, retryDeadRows } from "../kernel/outbox.ts";
import type { Logger } from "../logger.ts";
import type { MailTransport } from "../mail/transport.ts";
import { type OutboundFetch, type OutboundPolicy, OutboundRefused, outboundFetch } from "../net/outbound.ts";
import { alertsChannel } from "./inbox.ts";
import type { ChatPayload, EmailPayload, InAppPayload, WebhookPayload } from "./matching.ts";
import { type AlertMail, immediateMail, slackMessage, teamsMessage } from "./messages.ts";

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

class PermanentFailure extends Error {}

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

  async function deliver(row: Claimed): Promise<void> {
    switch (row.channel) {
      case "inapp": {
        const p = row.payload as InAppPayload;
        // The alert, its notification and the delivery's state commit together.
        await database.db.transaction(async (tx) => {
          const inserted = (await tx.execute(sql`
            insert into alerts (user_id, document_id, profile_id, title)
            values (${p.userId}, ${p.documentId}, ${p.profileId}, ${p.title})
            on conflict do nothing returning id`)) as unknown as { rows: { id: number | string }[] };
          const id = inserted.rows[0]?.id;
          if (id !== undefined) await tx.execute(sql`select pg_notify(${alertsChannel}, ${String(id)})`);
          await tx
            .update(deliveries)
            .set({ status: "sent", sentAt: new Date(), leaseUntil: null, lastError: null })
            .where(eq(deliveries.id, row.id));
        });
        return;
      }
      case "email": {
        const p = row.payload as EmailPayload;
        await deps.transport.send(immediateMail(p, { from: deps.mailFrom, siteUrl: deps.siteUrl, deliveryId: row.id }));
        break;
      }
      case "mail": {
        await deps.transport.send(row.payload as AlertMail);
        break;
      }
      case "chat": {
        const p = row.payload as ChatPayload;
        const message = p.format === "teams" ? teamsMessage(p, deps.siteUrl) : slackMessage(p, deps.siteUrl);
        await post(send, p.url, JSON.stringify(message), {}, settings.httpTimeoutMs);
        break;
      }
      case "webhook": {
        const p = row.payload as WebhookPayload;
        const [hook] = await database.db.select().from(webhooks).where(eq(webhooks.id, p.webhookId));
        if (!hook) throw new PermanentFailure("webhook deleted");
        const body = JSON.stringify(p.body);
        const timestamp = new Date();
        // The delivery id is the message id: a retry carries the same webhook-id, so receivers can deduplicate.
        const signature = new Webhook(hook.secret).sign(row.id, timestamp, body);
        await post(
          send,
          hook.url,
          body,
          {
            "webhook-id": row.id,
            "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
            "webhook-signature": signature,
          },
          settings.httpTimeoutMs,
        );
        break;
      }
      default:
        throw new PermanentFailure(`unknown channel ${row.channel}`);
    }
    await database.db
      .update(deliveries)
      .set({ status: "sent", sentAt: new Date(), leaseUntil: null, lastError: null })
      .where(eq(deliveries.id, row.id));
  }

  /**
   * A claimed batch's in-app rows in one transaction: their alerts in one insert, one NOTIFY per new
   * alert, the rows marked sent (one transaction per row made a 10,000-profile fan-out take minutes).
   * Any failure falls back to the rows one by one, each with its own retry.
   */
  async function processInApp(rows: Claimed[], one: (row: Claimed) => Promise<void>): Promise<void> {
    try {
      await database.db.transaction(async (tx) => {
        const json = JSON.stringify(
          rows.map((row) => {
            const p = row.payload as InAppPayload;
            return { u: p.userId, d: p.documentId, p: p.profileId, t: p.title };
          }),
        );
        const inserted = (await tx.execute(sql`
          insert into alerts (user_id, document_id, profile_id, title)
          select r->>'u', (r->>'d')::uuid, (r->>'p')::uuid, r->>'t' from jsonb_array_elements(${json}::jsonb) r
          on conflict do nothing returning id`)) as unknown as { rows: { id: number | string }[] };
        if (inserted.rows.length) {
          const ids = JSON.stringify(inserted.rows.map((row) => String(row.id)));
          await tx.execute(
            sql`select pg_notify(${alertsChannel}, id) from jsonb_array_elements_text(${ids}::jsonb) id`,
          );
        }
        const done = JSON.stringify(rows.map((row) => row.id));
        await tx.execute(sql`
          update deliveries set status = 'sent', sent_at = now(), lease_until = null, last_error = null
          where id in (select (value)::uuid from jsonb_array_elements_text(${done}::jsonb))`);
      });
    } catch (error) {
      log.warn({ err: error, rows: rows.length }, "in-app batch failed; delivering one by one");
      await Promise.all(rows.map(one));
    }
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
      return giveUpAt !== undefined ? Date.now() + delay > giveUpAt : row.attempts >= settings.maxAttempts;
    },
    sendBatch(rows, one) {
      const inApp = rows.filter((row) => row.channel === "inapp");
      return [
        ...rows.filter((row) => row.channel !== "inapp").map(one),
        ...(inApp.length > 1 ? [processInApp(inApp, one)] : inApp.map(one)),
      ];
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
    set: sql`give_up_at = case when channel = 'webhook' then now() + interval '24 hours' else null end`,
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
