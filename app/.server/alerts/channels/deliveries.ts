/**
 * The deliveries outbox as the channels see it: the row a channel prepares, and the one insert
 * that stores a batch of them (in the caller's transaction) and wakes the delivery workers.
 */

import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rowsOf } from "../../db/rows.ts";
import { deliveriesChannel } from "../inbox.ts";

/** One message to send, as stored: `kind` is the deliveries.channel column (see index.ts). */
export interface NewDelivery {
  id: string;
  /** The match id, "webhook:<documentId>", "event:<type>:<key>", "share:<id>", "digest:<user>:<day>". */
  matchKey: string;
  kind: string;
  recipient: string;
  organizationId: string | null;
  payload: unknown;
  giveUpAt: Date | null;
}

const chunkSize = 5000;

/**
 * Stores the rows (a row already stored for the same match key, kind and recipient is skipped),
 * then NOTIFYs the workers when anything was new. Returns how many rows were new.
 */
export async function insertDeliveries(tx: Db, rows: NewDelivery[]): Promise<number> {
  let enqueued = 0;
  for (let i = 0; i < rows.length; i += chunkSize) {
    // One statement per chunk with the rows as one JSON parameter (fewer bound parameters than VALUES lists).
    const json = JSON.stringify(rows.slice(i, i + chunkSize));
    const done = await rowsOf(
      tx,
      sql`insert into deliveries (id, match_key, channel, recipient, organization_id, payload, give_up_at)
      select (r->>'id')::uuid, r->>'matchKey', r->>'kind', r->>'recipient', r->>'organizationId', r->'payload', (r->>'giveUpAt')::timestamptz
      from jsonb_array_elements(${json}::jsonb) r
      on conflict do nothing
      returning id`,
    );
    enqueued += done.length;
  }
  if (enqueued > 0) await tx.execute(sql`select pg_notify(${deliveriesChannel}, '')`);
  return enqueued;
}
