/**
 * The webhook channel: organisation events POSTed to API webhook subscriptions, signed with the
 * Standard Webhooks scheme; the delivery id is the message id (a retry carries the same
 * webhook-id, so receivers can deduplicate). Retried for 24 h (the row's give-up time).
 */
import { randomUUID } from "node:crypto";
import { and, arrayContains, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import { webhooks } from "../../../db/schema.ts";
import { insertDeliveries, type NewDelivery } from "../deliveries.ts";
import { type ChannelModule, deliveryKind, PermanentFailure } from "../types.ts";
import { isWebhookEventType, type WebhookEventType, webhookEventTypes } from "./events.ts";

/** Webhook deliveries are retried for this long. */
export const webhookRetryWindowMs = 24 * 60 * 60 * 1000;

export const webhookPayload = z.object({
  webhookId: z.string(),
  body: z.object({
    type: z.enum(webhookEventTypes),
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
    giveUpAt: new Date(event.now.getTime() + webhookRetryWindowMs),
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
    .where(and(eq(webhooks.organizationId, event.organisationId), arrayContains(webhooks.events, [event.type])));
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
      async send(p, ctx, delivery) {
        const [hook] = await ctx.database.db.select().from(webhooks).where(eq(webhooks.id, p.webhookId));
        if (!hook) throw new PermanentFailure("webhook deleted");
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
