/**
 * Webhook subscriptions (the API's /api/v1/webhooks and the admin page /app/admin/webhooks): the
 * input schema with fieldErrors in es/en, and the functions both call. The secret (`whsec_` +
 * base64 of 32 random bytes) is returned only by createWebhook. A webhook is active, disabled (by
 * an admin) or failing (a delivery ran out of its retry window); resuming or enabling it queues its
 * held deliveries again with their ids (decision 0152).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import { webhooks } from "../db/schema.ts";
import { checkOutboundUrl, type Resolver, validateOutboundUrl } from "../net/outbound.ts";
import { channelText, fill } from "./channels/catalog.ts";
import { insertDeliveries } from "./channels/deliveries.ts";
import { defaultWebhookEvents, webhookEventTypes, webhookTestEvent } from "./channels/webhook/events.ts";
import { type Lang, relevanceRank } from "./profiles.ts";
import { areaIds, jurisdictionIds, kindIds, sourceIds } from "./taxonomy-ids.ts";
import { resumeWebhooks, webhookTestKeyPrefix } from "./worker.ts";

/** Syntax and literal-address check, no DNS (the send path resolves and checks again). */
export function webhookUrlAllowed(value: string, allowPrivate: boolean): boolean {
  return checkOutboundUrl(value, { allowPrivate }).ok;
}

/**
 * The URL field of the webhook and feed forms: the outbound guard's check, and by default the
 * DNS answer of a name too (async: parse with safeParseAsync). allowPrivate skips both DNS and
 * the address check (WEBHOOKS_ALLOW_PRIVATE_URLS=1; tests), and then parses synchronously.
 */
export function outboundUrlField(message: string, options: OutboundUrlOptions = {}) {
  const field = z.string({ error: message }).trim().max(2000, message);
  if (options.allowPrivate) return field.refine((v) => webhookUrlAllowed(v, true), message);
  const policy = { allowPrivate: false, resolve: options.resolve };
  return field.refine(async (v) => (await validateOutboundUrl(v, policy)).ok, message);
}

export interface OutboundUrlOptions {
  allowPrivate?: boolean;
  /** Tests: a DNS stand-in. */
  resolve?: Resolver | undefined;
}

/** allowPrivate: WEBHOOKS_ALLOW_PRIVATE_URLS=1 (tests with a receiver on 127.0.0.1). */
export function webhookInputSchema(lang: Lang, options: OutboundUrlOptions = {}) {
  const t = channelText(lang).webhookInput;
  const eventsMessage = fill(t.events, { types: webhookEventTypes.join(", ") });
  const list = <T extends readonly [string, ...string[]]>(ids: T, message: string) =>
    z
      .array(z.enum(ids, { error: message }))
      .max(ids.length)
      .default([]);
  return z
    .object({
      url: outboundUrlField(t.url, options),
      areas: list(areaIds, t.area),
      jurisdictions: list(jurisdictionIds, t.jurisdiction),
      kinds: list(kindIds, t.kind),
      sources: list(sourceIds, t.source),
      minRelevance: z.enum(["high", "medium", "low"], { error: t.relevance }).nullable().default(null),
      q: z.string({ error: t.q }).trim().max(500, t.q).nullable().default(null),
      events: z
        .array(z.enum(webhookEventTypes, { error: eventsMessage }), { error: eventsMessage })
        .min(1, eventsMessage)
        .max(webhookEventTypes.length * 2, eventsMessage)
        .default([...defaultWebhookEvents]),
    })
    .strict();
}

export type WebhookInput = z.output<ReturnType<typeof webhookInputSchema>>;

export interface WebhookView {
  id: string;
  url: string;
  areas: string[];
  jurisdictions: string[];
  kinds: string[];
  sources: string[];
  minRelevance: "high" | "medium" | "low" | null;
  q: string | null;
  events: string[];
  createdAt: string;
  /** active; disabled by an admin (nothing new is queued); failing (its deliveries are held). */
  status: WebhookStatus;
  disabledAt: string | null;
  /** When a delivery ran out of its retry window; null when it is not failing. */
  failingSince: string | null;
  /** The error of that delivery. */
  failingError: string | null;
}

export type WebhookStatus = "active" | "disabled" | "failing";

const rankName = ["", "low", "medium", "high"] as const;

function view(row: typeof webhooks.$inferSelect): WebhookView {
  return {
    id: row.id,
    url: row.url,
    areas: row.areas,
    jurisdictions: row.jurisdictions,
    kinds: row.kinds,
    sources: row.sources,
    minRelevance: (rankName[row.minRelevance] || null) as WebhookView["minRelevance"],
    q: row.query,
    events: row.events,
    createdAt: row.createdAt.toISOString(),
    status: row.disabledAt ? "disabled" : row.failingSince ? "failing" : "active",
    disabledAt: row.disabledAt?.toISOString() ?? null,
    failingSince: row.failingSince?.toISOString() ?? null,
    failingError: row.failingSince ? row.failingError : null,
  };
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Validate with webhookInputSchema first; returns the view plus the secret, shown once. */
export async function createWebhook(
  tx: Db,
  orgId: string,
  input: WebhookInput,
): Promise<WebhookView & { secret: string }> {
  const secret = newWebhookSecret();
  const [row] = await tx
    .insert(webhooks)
    .values({
      id: randomUUID(),
      organizationId: orgId,
      url: input.url,
      areas: [...input.areas],
      jurisdictions: [...input.jurisdictions],
      kinds: [...input.kinds],
      sources: [...input.sources],
      minRelevance: input.minRelevance ? relevanceRank[input.minRelevance] : 0,
      query: input.q || null,
      events: [...new Set(input.events)],
      secret,
    })
    .returning();
  if (!row) throw new Error("webhook insert returned nothing");
  return { ...view(row), secret };
}

export async function listWebhooks(tx: Db, orgId: string): Promise<WebhookView[]> {
  const rows = await tx
    .select()
    .from(webhooks)
    .where(eq(webhooks.organizationId, orgId))
    .orderBy(desc(webhooks.createdAt));
  return rows.map(view);
}

/** true when the organisation had it (the route answers 204, else 404); its unsent deliveries are deleted with it. */
export async function deleteWebhook(tx: Db, orgId: string, id: string): Promise<boolean> {
  if (!z.uuid().safeParse(id).success) return false;
  const rows = await tx
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.organizationId, orgId)))
    .returning({ id: webhooks.id });
  if (!rows.length) return false;
  // Its deliveries not sent yet go with it (one in flight fails as "webhook deleted").
  await tx.execute(
    sql`delete from deliveries where channel = 'webhook' and recipient = ${id} and status in ('pending', 'held', 'dead')`,
  );
  return true;
}

export async function getWebhook(tx: Db, orgId: string, id: string): Promise<WebhookView | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  const [row] = await tx
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.organizationId, orgId)));
  return row ? view(row) : undefined;
}

/**
 * Disables the organisation's webhook: no new event is queued for it, and its queued deliveries are
 * held (sent when it is enabled again). undefined when the organisation has no such webhook.
 */
export async function disableWebhook(tx: Db, orgId: string, id: string): Promise<WebhookView | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  const [row] = await tx
    .update(webhooks)
    .set({ disabledAt: sql`coalesce(${webhooks.disabledAt}, now())` })
    .where(and(eq(webhooks.id, id), eq(webhooks.organizationId, orgId)))
    .returning();
  if (!row) return undefined;
  await tx.execute(
    sql`update deliveries set status = 'held', lease_until = null
        where channel = 'webhook' and recipient = ${id} and status = 'pending'
          and match_key not like ${`${webhookTestKeyPrefix}%`}`,
  );
  return view(row);
}

/**
 * Enables (resumes) the organisation's webhook: disabled and failing are cleared, and its held and
 * dead deliveries are queued again with their ids (the receiver sees the same webhook-id) and a
 * fresh retry window. undefined when the organisation has no such webhook.
 */
export async function enableWebhook(
  tx: Db,
  orgId: string,
  id: string,
  windowMs: number,
): Promise<{ webhook: WebhookView; requeued: number } | undefined> {
  const { found, requeued } = await resumeWebhooks(tx, orgId, [id], { windowMs, requeueDead: true, enable: true });
  if (!found.length) return undefined;
  const webhook = await getWebhook(tx, orgId, id);
  return webhook ? { webhook, requeued } : undefined;
}

export interface WebhookDeliveryView {
  id: string;
  /** The event type (`webhook.test` for a test). */
  type: string;
  status: "pending" | "sending" | "sent" | "dead" | "held";
  attempts: number;
  /** When a pending delivery is tried next (null otherwise). */
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** A webhook's most recent deliveries (sent ones are kept 30 days), newest first. */
export async function webhookDeliveries(
  tx: Db,
  orgId: string,
  webhookId: string,
  limit = 20,
): Promise<WebhookDeliveryView[]> {
  if (!z.uuid().safeParse(webhookId).success) return [];
  const rows = await rowsOf<{
    id: string;
    type: string | null;
    status: WebhookDeliveryView["status"];
    attempts: number;
    next_attempt_at: Date | string;
    last_error: string | null;
    created_at: Date | string;
    sent_at: Date | string | null;
  }>(
    tx,
    sql`select id, payload->'body'->>'type' as type, status, attempts, next_attempt_at, last_error, created_at, sent_at
        from deliveries
        where channel = 'webhook' and recipient = ${webhookId} and organization_id = ${orgId}
        order by created_at desc, id
        limit ${limit}`,
  );
  const iso = (value: Date | string) => new Date(value).toISOString();
  return rows.map((row) => ({
    id: row.id,
    type: row.type ?? "",
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? iso(row.next_attempt_at) : null,
    lastError: row.last_error,
    createdAt: iso(row.created_at),
    sentAt: row.sent_at ? iso(row.sent_at) : null,
  }));
}

/**
 * Queues a test delivery to the organisation's webhook: `{ type: "webhook.test", timestamp, data:
 * { webhookId } }`, signed and sent by the delivery worker like every event, tried once (its
 * give-up time is now), sent whatever the webhook's state, never marking it failing. Returns the
 * delivery id (its webhook-id), or undefined when the organisation has no such webhook.
 */
export async function queueWebhookTest(tx: Db, orgId: string, webhookId: string): Promise<string | undefined> {
  const hook = await getWebhook(tx, orgId, webhookId);
  if (!hook) return undefined;
  const id = randomUUID();
  const now = new Date();
  await insertDeliveries(tx, [
    {
      id,
      matchKey: `${webhookTestKeyPrefix}${id}`,
      kind: "webhook",
      recipient: hook.id,
      organizationId: orgId,
      payload: {
        webhookId: hook.id,
        body: { type: webhookTestEvent, timestamp: now.toISOString(), data: { webhookId: hook.id } },
      },
      giveUpAt: now,
    },
  ]);
  return id;
}

/** Waits (polling the row) until a delivery is sent or dead, up to `timeoutMs`; its last state. */
export async function awaitDelivery(
  tx: Db,
  deliveryId: string,
  timeoutMs: number,
): Promise<{ status: string; lastError: string | null } | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await rowsOf<{ status: string; last_error: string | null }>(
      tx,
      sql`select status, last_error from deliveries where id = ${deliveryId}`,
    );
    if (!row || row.status === "sent" || row.status === "dead" || Date.now() >= deadline)
      return row && { status: row.status, lastError: row.last_error };
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
