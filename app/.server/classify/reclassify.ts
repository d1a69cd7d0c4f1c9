/**
 * Reclassification (issue 12): documents whose labels came from other tables, rules or model
 * (their classifier_version is not the running one's, or they have none) are classified again
 * from their stored record, in batches, each document in its own transaction with its history
 * row. A document whose labels changed is handed to `onChanged` (alert matching). Safe to run on
 * several instances at once: a batch takes its rows FOR UPDATE SKIP LOCKED.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { documents } from "../db/schema.ts";
import type { Classification, SourceDocument } from "../documents/types.ts";
import { classifierVersion, classify } from "./classify.ts";
import { recordLabels, sameLabels } from "./history.ts";

export interface ReclassifyResult {
  /** Documents classified again. */
  checked: number;
  /** Of those, documents whose labels changed. */
  changed: number;
}

export interface ReclassifyOptions {
  batchSize?: number;
  /** Stop after this many documents (the job runs again later for the rest). */
  limit?: number;
  onChanged?(documentId: string): Promise<unknown>;
  /** The running version (tests pass another to force a pass). */
  version?: string;
  /** The classifier (tests pass a changed one, as new tables or a new model would be). */
  classify?: (doc: SourceDocument) => Classification;
}

/** How many documents carry labels from another classifier version. */
export async function staleCount(database: Database, version = classifierVersion()): Promise<number> {
  const { rows } = await database.query<{ n: number }>(
    "select count(*)::int as n from documents where classifier_version is distinct from $1",
    [version],
  );
  return rows[0]?.n ?? 0;
}

export async function reclassifyStale(database: Database, options: ReclassifyOptions = {}): Promise<ReclassifyResult> {
  const version = options.version ?? classifierVersion();
  const batchSize = options.batchSize ?? 100;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const result: ReclassifyResult = { checked: 0, changed: 0 };
  while (result.checked < limit) {
    const changedIds: string[] = [];
    const processed = await database.db.transaction(async (tx) => {
      const list = await tx
        .select({
          id: documents.id,
          record: documents.record,
          areas: documents.areas,
          jurisdiction: documents.jurisdiction,
          kind: documents.kind,
          relevance: documents.relevance,
        })
        .from(documents)
        .where(sql`${documents.classifierVersion} is distinct from ${version}`)
        .orderBy(asc(documents.id))
        .limit(Math.min(batchSize, limit - result.checked))
        .for("update", { skipLocked: true });
      for (const row of list) {
        const labels = (options.classify ?? classify)(row.record);
        const stamped = { ...labels, classifierVersion: version };
        await tx
          .update(documents)
          .set({
            areas: labels.areas,
            jurisdiction: labels.jurisdiction,
            kind: labels.kind,
            relevance: labels.relevance,
            classification: stamped,
            classifierVersion: version,
          })
          .where(eq(documents.id, row.id));
        const before = {
          areas: row.areas ?? [],
          jurisdiction: row.jurisdiction,
          kind: row.kind,
          relevance: row.relevance,
        };
        await recordLabels(tx, row.id, "reclassified", {
          areas: labels.areas,
          jurisdiction: labels.jurisdiction,
          kind: labels.kind,
          relevance: labels.relevance,
          classifierVersion: version,
        });
        if (!sameLabels(before, labels)) changedIds.push(row.id);
      }
      return list.length;
    });
    result.checked += processed;
    result.changed += changedIds.length;
    for (const id of changedIds) await options.onChanged?.(id);
    if (processed === 0) break;
  }
  return result;
}
