/**
 * Webhook events of triage and obligations (`document.triaged`, `obligation.created`,
 * `obligation.updated`): one delivery per webhook subscription of the organisation, stored in the
 * deliveries outbox inside the caller's transaction; the delivery worker signs and sends them
 * exactly like `document.matched` (Standard Webhooks headers, retried for 24 h).
 *
 * A minimal stand-in for the generic queueWebhookEvent that the "channels" work adds: when that
 * lands, this function becomes one call to it. Subscribers get every event of their organisation
 * (their area/kind filters are for matched documents: a decision their colleagues made is news
 * whatever the document's labels).
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { deliveriesChannel } from "../alerts/inbox.ts";
import type { Executor } from "../audit/executor.ts";
import { deliveries, webhooks } from "../db/schema/alerts.ts";

/** Retried for 24 h like every webhook delivery (alerts/matching.ts webhookRetryWindowMs; not imported: matching imports this module's caller). */
const webhookRetryWindowMs = 24 * 60 * 60 * 1000;

export type TriageEventType = "document.triaged" | "obligation.created" | "obligation.updated";

export async function queueTriageWebhookEvent(
  tx: Executor,
  organizationId: string,
  type: TriageEventType,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<number> {
  const hooks = await tx.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.organizationId, organizationId));
  if (hooks.length === 0) return 0;
  const eventId = randomUUID();
  await tx.insert(deliveries).values(
    hooks.map((hook) => ({
      id: randomUUID(),
      matchKey: `event:${eventId}`,
      channel: "webhook",
      recipient: hook.id,
      organizationId,
      payload: {
        webhookId: hook.id,
        body: { type, timestamp: now.toISOString(), data: { webhookId: hook.id, ...data } },
      },
      giveUpAt: new Date(now.getTime() + webhookRetryWindowMs),
    })),
  );
  await tx.execute(sql`select pg_notify(${deliveriesChannel}, '')`);
  return hooks.length;
}
