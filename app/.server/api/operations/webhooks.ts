/**
 * API webhooks: subscriptions whose matching documents are POSTed, signed (Standard Webhooks).
 * They send the organisation's data out, so they take an admin token (decision 0081); an
 * organisation holds at most WEBHOOKS_MAX_PER_ORGANIZATION of them.
 */
import { z } from "zod";
import { webhookEvents, webhookEventTypes } from "../../alerts/channels/webhook/events.ts";
import { webhookInputSchema } from "../../alerts/webhooks.ts";
import { defineOperation } from "../registry.ts";

const webhookView = z.object({
  id: z.string(),
  url: z.string(),
  areas: z.array(z.string()),
  jurisdictions: z.array(z.string()),
  kinds: z.array(z.string()),
  sources: z.array(z.string()),
  minRelevance: z.enum(["high", "medium", "low"]).nullable(),
  q: z.string().nullable(),
  events: z.array(z.enum(webhookEventTypes)),
  createdAt: z.string(),
  status: z
    .enum(["active", "disabled", "failing"])
    .describe(
      "active; disabled by an admin (no new event is queued, queued ones are held); failing: a delivery ran out of its retry window (24 h), and its deliveries are held until an admin resumes the webhook",
    ),
  disabledAt: z.string().nullable(),
  failingSince: z.string().nullable().describe("When a delivery ran out of its retry window (null unless failing)"),
  failingError: z.string().nullable().describe("That delivery's last error (null unless failing)"),
});

const deliveryView = z.object({
  id: z.string().describe("The delivery's id: the webhook-id header the receiver gets, the same on every retry"),
  type: z.string().describe("The event type (`webhook.test` for a test sent from the admin page)"),
  status: z.enum(["pending", "sending", "sent", "dead", "held"]),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable().describe("When a pending delivery is tried next"),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

const eventList = Object.entries(webhookEvents)
  .map(([type, meaning]) => `\`${type}\`: ${meaning}`)
  .join(" ");

export const createWebhookOperation = defineOperation({
  method: "post",
  path: "/api/v1/webhooks",
  operationId: "createWebhook",
  summary: "Subscribe a URL to the documents that match these filters, and to the organisation's events",
  description: `Each event the subscription names in \`events\` (default \`["document.matched"]\`) is POSTed as \`{ type, timestamp, data: { webhookId, ... } }\`, signed with the Standard Webhooks scheme under the returned secret (shown once); non-2xx answers are retried for 24 h (ALERTS_RETRY_WINDOW_MS), with a back-off doubling from 5 s to at most 30 min; a delivery that runs out of it marks the subscription \`failing\` and its deliveries are held until an admin resumes it (PATCH). The filters (areas, jurisdictions, kinds, sources, minRelevance, q) choose the documents of \`document.matched\`. Event types: ${eventList} Admin tokens only. An organisation holds at most WEBHOOKS_MAX_PER_ORGANIZATION subscriptions (default 25): past it, 422 with a message saying so. Field errors and messages follow Accept-Language.`,
  tags: ["webhooks"],
  scope: "admin",
  body: webhookInputSchema("en"),
  bodyFor: ({ locale, allowPrivateUrls }) => webhookInputSchema(locale, { allowPrivate: allowPrivateUrls }),
  responses: {
    201: { description: "The subscription and its signing secret", schema: webhookView.extend({ secret: z.string() }) },
  },
});

export const listWebhooksOperation = defineOperation({
  method: "get",
  path: "/api/v1/webhooks",
  operationId: "listWebhooks",
  summary: "The organisation's webhook subscriptions",
  description: "Admin tokens only.",
  tags: ["webhooks"],
  scope: "admin",
  responses: { 200: { description: "Subscriptions, newest first", schema: z.array(webhookView) } },
});

export const deleteWebhookOperation = defineOperation({
  method: "delete",
  path: "/api/v1/webhooks/{id}",
  operationId: "deleteWebhook",
  summary: "Remove a webhook subscription",
  description: "Admin tokens only.",
  tags: ["webhooks"],
  scope: "admin",
  params: z.object({ id: z.string() }),
  responses: { 204: { description: "Removed" } },
});

export const updateWebhookOperation = defineOperation({
  method: "patch",
  path: "/api/v1/webhooks/{id}",
  operationId: "updateWebhook",
  summary: "Disable a webhook subscription, or enable (resume) it",
  description:
    '`{ "enabled": false }` disables it: no new event is queued for it, and its queued deliveries are held. `{ "enabled": true }` enables it, or resumes a failing one: its held deliveries (and those that ran out of their retry window) are queued again with their original ids, so a receiver that deduplicates on `webhook-id` gets each once. Audited (`webhook.disabled`, `webhook.enabled`). Admin tokens only.',
  tags: ["webhooks"],
  scope: "admin",
  params: z.object({ id: z.string() }),
  body: z.object({ enabled: z.boolean() }).strict(),
  responses: {
    200: {
      description: "The subscription after the change, and how many deliveries were queued again",
      schema: webhookView.extend({ requeued: z.number().int() }),
    },
  },
});

export const listWebhookDeliveriesOperation = defineOperation({
  method: "get",
  path: "/api/v1/webhooks/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "A webhook subscription's recent deliveries",
  description:
    "The 50 most recent, newest first, with their state, attempts, next retry and last error (sent ones are kept 30 days). Admin tokens only.",
  tags: ["webhooks"],
  scope: "admin",
  params: z.object({ id: z.string() }),
  responses: { 200: { description: "Deliveries, newest first", schema: z.array(deliveryView) } },
});
