/** API webhooks: subscriptions whose matching documents are POSTed, signed (Standard Webhooks). */
import { z } from "zod";
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
  createdAt: z.string(),
});

export const createWebhookOperation = defineOperation({
  method: "post",
  path: "/api/v1/webhooks",
  operationId: "createWebhook",
  summary: "Subscribe a URL to the documents that match these filters",
  description:
    "Each matching document is POSTed as `{ type: 'document.matched', timestamp, data: { webhookId, document } }`, signed with the Standard Webhooks scheme under the returned secret (shown once); non-2xx answers are retried for 24 h.",
  tags: ["webhooks"],
  scope: "read",
  body: webhookInputSchema("en"),
  responses: {
    201: { description: "The subscription and its signing secret", schema: webhookView.extend({ secret: z.string() }) },
  },
});

export const listWebhooksOperation = defineOperation({
  method: "get",
  path: "/api/v1/webhooks",
  operationId: "listWebhooks",
  summary: "The organisation's webhook subscriptions",
  tags: ["webhooks"],
  scope: "read",
  responses: { 200: { description: "Subscriptions, newest first", schema: z.array(webhookView) } },
});

export const deleteWebhookOperation = defineOperation({
  method: "delete",
  path: "/api/v1/webhooks/{id}",
  operationId: "deleteWebhook",
  summary: "Remove a webhook subscription",
  tags: ["webhooks"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: { 204: { description: "Removed" } },
});
