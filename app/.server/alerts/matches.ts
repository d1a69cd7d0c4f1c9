/**
 * The alert_matches rows: one per document (or law change) and profile, across instances. Its own
 * module (database only) so that matching and the laws' matching share it without importing each other.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";

const chunkSize = 5000;

/**
 * Stores matches of one document (or law change) with profiles, skipping those already stored,
 * and returns the new ones (fanOutLater: their deliveries are written afterwards, by the laws'
 * fan-out, which looks for fanout_pending). One statement per chunk with the rows as one JSON parameter (fewer
 * bound parameters than VALUES lists).
 */
export async function insertMatches(
  tx: Db,
  documentId: string,
  matches: ReadonlyArray<{ profileId: string; reasons: unknown }>,
  options: { fanOutLater?: boolean } = {},
): Promise<Array<{ id: string; profileId: string }>> {
  const inserted: Array<{ id: string; profileId: string }> = [];
  for (let i = 0; i < matches.length; i += chunkSize) {
    const json = JSON.stringify(
      matches.slice(i, i + chunkSize).map((m) => ({ i: randomUUID(), p: m.profileId, r: m.reasons })),
    );
    const rows = await rowsOf<{ id: string; profile_id: string }>(
      tx,
      sql`insert into alert_matches (id, document_id, profile_id, reasons, fanout_pending)
        select (r->>'i')::uuid, ${documentId}::uuid, (r->>'p')::uuid, r->'r', ${options.fanOutLater === true}
        from jsonb_array_elements(${json}::jsonb) r
        on conflict do nothing
        returning id, profile_id`,
    );
    for (const row of rows) inserted.push({ id: row.id, profileId: row.profile_id });
  }
  return inserted;
}
