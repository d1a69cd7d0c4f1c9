/**
 * The webhook channel: organisation events POSTed to API webhook subscriptions, signed with the
 * Standard Webhooks scheme; the delivery id is the message id (a retry carries the same
 * webhook-id, so receivers can deduplicate). Retried for the worker's retry window (24 h; the
 * row's give-up time when set). A delivery that runs out of it marks its webhook failing (the
 * worker, in the same transaction); while a webhook is failing or disabled its deliveries are held,
 * and an admin's resume queues them again with their ids (webhooks.ts, decision 0152).
 */
import { randomUUID } from "node:crypto";
import { and, arrayContains, eq, isNull, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import { rowsOf } from "../../../db/rows.ts";
import { webhooks } from "../../../db/schema.ts";
import { insertDeliveries, type NewDelivery } from "../deliveries.ts";
import { type ChannelModule, deliveryKind, PermanentFailure } from "../types.ts";
import { isWebhookEventType, type WebhookEventType, webhookEventTypes, webhookTestEvent } from "./events.ts";

/** Webhook (and mail) deliveries are retried this long by default (ALERTS_RETRY_WINDOW_MS). */
export const webhookRetryWindowMs = 24 * 60 * 60 * 1000;

export const webhookPayload = z.object({
  webhookId: z.string(),
  body: z.object({
    type: z.enum([...webhookEventTypes, webhookTestEvent]),
    timestamp: z.string(),
    data: z.looseObject({ webhookId: z.string() }),
  }),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;

function withoutWebhookId(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => key !== "webhookId"));
}

/** One subscription's delivery of one event: the body every receiver gets is `{ type, timestamp, data: { webhookId, ...data } }`. */
export function webhookDelivery(
  hook: { id: string; organizationId: string },
  event: { type: WebhookEventType; matchKey: string; data: Record<string, unknown>; now: Date },
): NewDelivery {
  const payload: WebhookPayload = {
    webhookId: hook.id,
    body: {
      type: event.type,
      timestamp: event.now.toISOString(),
      data: { webhookId: hook.id, ...withoutWebhookId(event.data) },
    },
  };
  return {
    id: randomUUID(),
    matchKey: event.matchKey,
    kind: "webhook",
    recipient: hook.id,
    organizationId: hook.organizationId,
    payload,
    // The worker's retry window from the row's creation (ALERTS_RETRY_WINDOW_MS).
    giveUpAt: null,
  };
}

export interface OrganisationEvent {
  organisationId: string;
  type: WebhookEventType;
  /** JSON data of the event (ids, states, dates; a document only if the organisation may see it); `webhookId` is set per subscription. */
  data: Record<string, unknown>;
  /** Idempotency: an event queued again with the same type and key reaches each webhook once. Default: a new key each call. */
  key?: string;
  now?: Date;
}

const eventData = z.record(z.string(), z.unknown());

/**
 * Queues an organisation event for every webhook of that organisation subscribed to its type, in
 * the caller's transaction (the event is sent exactly when the change that caused it commits).
 * Sent signed by the delivery worker like every webhook. Returns how many deliveries were queued.
 * The organisation's reach is the caller's rule: put in `data` only what the organisation may see.
 */
export async function queueWebhookEvent(tx: Db, event: OrganisationEvent): Promise<number> {
  if (!isWebhookEventType(event.type)) throw new Error(`unknown webhook event type ${String(event.type)}`);
  if (!event.organisationId) throw new Error("an organisation event needs its organisationId");
  const data = eventData.parse(event.data);
  // A round trip through JSON: what is queued is exactly what will be sent (dates as strings, no undefined).
  const json = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  const hooks = await tx
    .select({ id: webhooks.id, organizationId: webhooks.organizationId })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.organizationId, event.organisationId),
        arrayContains(webhooks.events, [event.type]),
        // A disabled webhook gets nothing new (a failing one does: held until an admin resumes it).
        isNull(webhooks.disabledAt),
      ),
    );
  if (!hooks.length) return 0;
  const now = event.now ?? new Date();
  const matchKey = `event:${event.type}:${event.key ?? randomUUID()}`;
  return insertDeliveries(
    tx,
    hooks.map((hook) => webhookDelivery(hook, { type: event.type, matchKey, data: json, now })),
  );
}

export const webhookChannel: ChannelModule = {
  id: "webhook",
  deliveries: [
    deliveryKind({
      kind: "webhook",
      payload: webhookPayload,
      retryWindow: true,
      async send(p, ctx, delivery) {
        const [hook] = await ctx.database.db.select().from(webhooks).where(eq(webhooks.id, p.webhookId));
        if (!hook) throw new PermanentFailure("webhook deleted");
        // A test is sent whatever the webhook's state: it is how an admin checks a receiver before resuming.
        if ((hook.disabledAt || hook.failingSince) && p.body.type !== webhookTestEvent) {
          if (await holdDelivery(ctx.database.db, hook.id, delivery.id)) return "committed";
        }
        const body = JSON.stringify(p.body);
        const timestamp = new Date();
        const signature = new Webhook(hook.secret).sign(delivery.id, timestamp, body);
        await ctx.post(hook.url, body, {
          "webhook-id": delivery.id,
          "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
          "webhook-signature": signature,
        });
        return "sent";
      },
    }),
  ],
};

/**
 * Keeps a claimed delivery while its webhook is disabled or failing: status "held", released by an
 * admin's resume (webhooks.ts). The webhook's row is read FOR SHARE in the same transaction, so a
 * resume that commits meanwhile is seen (the row is then sent now rather than held for nobody).
 * false: the webhook is active again (send it).
 */
async function holdDelivery(db: Db, webhookId: string, deliveryId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [paused] = await rowsOf<{ id: string }>(
      tx,
      sql`select id from webhooks where id = ${webhookId}
          and (disabled_at is not null or failing_since is not null) for share`,
    );
    if (!paused) return false;
    await rowsOf(tx, sql`update deliveries set status = 'held', lease_until = null where id = ${deliveryId}`);
    return true;
  });
}
