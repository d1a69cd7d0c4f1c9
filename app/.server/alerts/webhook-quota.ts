/**
 * The cap on API webhook subscriptions per organisation (WEBHOOKS_MAX_PER_ORGANIZATION, default
 * 25): checked under a per-organisation transaction lock, so concurrent requests cannot pass it.
 */
import { count, eq, sql } from "drizzle-orm";
import type { Locale } from "../../i18n/locales.ts";
import { validationText } from "../../i18n/validation.ts";
import { fillTemplate } from "../../lib/fill-template.ts";
import type { Db } from "../db/client.ts";
import { webhooks } from "../db/schema.ts";

export const defaultMaxWebhooksPerOrganization = 25;

export function webhookLimitMessage(locale: Locale, limit: number): string {
  return fillTemplate(validationText(locale).webhookLimit, { limit });
}

/**
 * Inside the creating transaction: takes the organisation's lock and answers whether another
 * subscription fits under `limit`.
 */
export async function webhookSlotFree(tx: Db, organizationId: string, limit: number): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${organizationId}`}))`);
  const [row] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.organizationId, organizationId));
  return (row?.n ?? 0) < limit;
}
