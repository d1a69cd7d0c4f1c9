/**
 * Webhook events of triage and obligations (`document.triaged`, `obligation.created`,
 * `obligation.updated`, `obligation.review_needed`): queued through the webhook channel's organisation events
 * (alerts/channels/webhook, decision 0101) inside the caller's transaction, to the organisation's
 * subscriptions that name the event; signed and sent by the delivery worker like
 * `document.matched` (Standard Webhooks headers, retried for 24 h).
 */
import { queueWebhookEvent } from "../alerts/channels/webhook/index.ts";
import type { Executor } from "../audit/executor.ts";

export type TriageEventType =
  | "document.triaged"
  | "obligation.created"
  | "obligation.updated"
  | "obligation.review_needed";

export async function queueTriageWebhookEvent(
  tx: Executor,
  organizationId: string,
  type: TriageEventType,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<number> {
  return queueWebhookEvent(tx, { organisationId: organizationId, type, data, now });
}
