/**
 * The in-app channel: an alert in the member's notification centre, NOTIFYed on alertsChannel
 * (the SSE stream), committed with its delivery row marked sent. A claimed batch goes in one
 * transaction (one transaction per row made a 10,000-profile fan-out take minutes).
 */

import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf } from "../../../db/rows.ts";
import { deliveries } from "../../../db/schema.ts";
import { alertsChannel } from "../../inbox.ts";
import { matchWhy } from "../../why.ts";
import { type ChannelModule, deliveryKind, type PreparedDelivery, type ProfileMatch } from "../types.ts";

export const inAppPayload = z.object({
  userId: z.string(),
  documentId: z.string(),
  profileId: z.string(),
  title: z.string(),
  /** Why it matched (decision 0148); absent on rows stored before. */
  why: matchWhy.optional(),
});
export type InAppPayload = z.infer<typeof inAppPayload>;

function prepare(match: ProfileMatch): PreparedDelivery[] {
  return match.recipients.map((recipient) => {
    const payload: InAppPayload = {
      userId: recipient.userId,
      documentId: match.documentId,
      profileId: match.profile.id,
      title: match.document.title,
      why: match.why,
    };
    return { kind: "inapp", recipient: recipient.userId, payload };
  });
}

export const inAppChannel: ChannelModule = {
  id: "in-app",
  prepare,
  deliveries: [
    deliveryKind({
      kind: "inapp",
      payload: inAppPayload,
      async send(p, ctx, delivery) {
        // The alert, its notification and the delivery's state commit together.
        await ctx.database.db.transaction(async (tx) => {
          const inserted = await rowsOf<{ id: number | string }>(
            tx,
            sql`insert into alerts (user_id, document_id, profile_id, title, why)
            values (${p.userId}, ${p.documentId}, ${p.profileId}, ${p.title}, ${p.why ? JSON.stringify(p.why) : null}::jsonb)
            on conflict do nothing returning id`,
          );
          const id = inserted[0]?.id;
          if (id !== undefined) await tx.execute(sql`select pg_notify(${alertsChannel}, ${String(id)})`);
          await tx
            .update(deliveries)
            .set({ status: "sent", sentAt: new Date(), leaseUntil: null, lastError: null })
            .where(eq(deliveries.id, delivery.id));
        });
        return "committed";
      },
      async sendBatch(items, ctx) {
        await ctx.database.db.transaction(async (tx) => {
          const json = JSON.stringify(
            items.map(({ payload: p }) => ({
              u: p.userId,
              d: p.documentId,
              p: p.profileId,
              t: p.title,
              w: p.why ?? null,
            })),
          );
          const inserted = await rowsOf<{ id: number | string }>(
            tx,
            sql`insert into alerts (user_id, document_id, profile_id, title, why)
            select r->>'u', (r->>'d')::uuid, (r->>'p')::uuid, r->>'t', nullif(r->'w', 'null'::jsonb)
            from jsonb_array_elements(${json}::jsonb) r
            on conflict do nothing returning id`,
          );
          if (inserted.length) {
            const ids = JSON.stringify(inserted.map((row) => String(row.id)));
            await tx.execute(
              sql`select pg_notify(${alertsChannel}, id) from jsonb_array_elements_text(${ids}::jsonb) id`,
            );
          }
          const done = JSON.stringify(items.map(({ delivery }) => delivery.id));
          await tx.execute(sql`
            update deliveries set status = 'sent', sent_at = now(), lease_until = null, last_error = null
            where id in (select (value)::uuid from jsonb_array_elements_text(${done}::jsonb))`);
        });
      },
    }),
  ],
};
