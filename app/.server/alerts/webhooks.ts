/**
 * API webhook subscriptions (POST/GET/DELETE /api/v1/webhooks): the input schema with fieldErrors
 * in es/en, and the functions the routes call. The secret (`whsec_` + base64 of 32 random bytes)
 * is returned only by createWebhook.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { webhooks } from "../db/schema.ts";
import { checkOutboundUrl, type Resolver, validateOutboundUrl } from "../net/outbound.ts";
import { channelText, fill } from "./channels/catalog.ts";
import { defaultWebhookEvents, webhookEventTypes } from "./channels/webhook/events.ts";
import { type Lang, relevanceRank } from "./profiles.ts";
import { areaIds, jurisdictionIds, kindIds, sourceIds } from "./taxonomy-ids.ts";

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
}

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

/** true when the organisation had it (the route answers 204, else 404). */
export async function deleteWebhook(tx: Db, orgId: string, id: string): Promise<boolean> {
  if (!z.uuid().safeParse(id).success) return false;
  const rows = await tx
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.organizationId, orgId)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}
