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
});

const eventList = Object.entries(webhookEvents)
  .map(([type, meaning]) => `\`${type}\`: ${meaning}`)
  .join(" ");

export const createWebhookOperation = defineOperation({
  method: "post",
  path: "/api/v1/webhooks",
  operationId: "createWebhook",
  summary: "Subscribe a URL to the documents that match these filters, and to the organisation's events",
  description: `Each event the subscription names in \`events\` (default \`["document.matched"]\`) is POSTed as \`{ type, timestamp, data: { webhookId, ... } }\`, signed with the Standard Webhooks scheme under the returned secret (shown once); non-2xx answers are retried for 24 h. The filters (areas, jurisdictions, kinds, sources, minRelevance, q) choose the documents of \`document.matched\`. Event types: ${eventList} Admin tokens only. An organisation holds at most WEBHOOKS_MAX_PER_ORGANIZATION subscriptions (default 25): past it, 422 with a message saying so. Field errors and messages follow Accept-Language.`,
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
