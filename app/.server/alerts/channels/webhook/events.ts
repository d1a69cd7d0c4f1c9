/**
 * The organisation events a webhook can subscribe to. Adding one is one line here: the API's
 * `events` enum, OpenAPI and queueWebhookEvent's type all read this list.
 */
export const webhookEvents = {
  "document.matched":
    "A document within the organisation's reach matched the webhook's filters. data: { webhookId, document, why } (why: the filters it met: areas with the classifier's evidence, terms, other filters, and the sentence in es and en).",
  "law.changed":
    "A law the organisation follows changed (an amending act was published, or its consolidated text caught up). data.why: each of the organisation's follows it matched, with the followed articles that changed.",
  "document.triaged":
    "A document's triage (status, assignee, due date, impact or rationale) changed in the organisation.",
  "obligation.created": "An obligation was recorded from a document in the organisation.",
  "obligation.updated": "An obligation of the organisation was changed.",
  "obligation.review_needed":
    "The consolidated text of the law article an obligation of the organisation is anchored to changed: the obligation needs a review. data: { obligation, review, law, block, version, url }",
} as const;

export type WebhookEventType = keyof typeof webhookEvents;

export const webhookEventTypes = Object.keys(webhookEvents) as [WebhookEventType, ...WebhookEventType[]];

/** What a subscription receives when it names no events (and what every older subscription has). */
export const defaultWebhookEvents: WebhookEventType[] = ["document.matched"];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === "string" && Object.hasOwn(webhookEvents, value);
}

/**
 * The test delivery an admin sends from /app/admin/webhooks: signed and sent like every event, but
 * no subscription names it (not in webhookEvents) and it does not mark a webhook failing.
 */
export const webhookTestEvent = "webhook.test";
