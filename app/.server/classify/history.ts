/**
 * A document's labels over time: a row in document_labels whenever its areas, jurisdiction, kind
 * or relevance differ from the last row (or there is none), written in the caller's transaction.
 */
import { desc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { documentLabels } from "../db/schema.ts";
import type { AreaLabel } from "../documents/types.ts";

export type LabelCause = "ingested" | "changed" | "reclassified";

export interface Labels {
  areas: readonly AreaLabel[];
  jurisdiction: string | null;
  kind: string | null;
  relevance: string | null;
  classifierVersion: string;
}

/** Two label sets say the same thing: same areas (ids, in order), jurisdiction, kind and relevance. */
export function sameLabels(a: Omit<Labels, "classifierVersion">, b: Omit<Labels, "classifierVersion">): boolean {
  return (
    a.jurisdiction === b.jurisdiction &&
    a.kind === b.kind &&
    a.relevance === b.relevance &&
    a.areas.map((area) => area.id).join(",") === b.areas.map((area) => area.id).join(",")
  );
}

/** Records `labels` unless they are what the history already says last; true when a row was added. */
export async function recordLabels(tx: Db, documentId: string, cause: LabelCause, labels: Labels): Promise<boolean> {
  const [last] = await tx
    .select({
      areas: documentLabels.areas,
      jurisdiction: documentLabels.jurisdiction,
      kind: documentLabels.kind,
      relevance: documentLabels.relevance,
    })
    .from(documentLabels)
    .where(eq(documentLabels.documentId, documentId))
    .orderBy(desc(documentLabels.at), desc(documentLabels.id))
    .limit(1);
  if (last && sameLabels(last, labels)) return false;
  await tx.insert(documentLabels).values({
    documentId,
    cause: last ? cause : cause === "reclassified" ? "reclassified" : "ingested",
    classifierVersion: labels.classifierVersion,
    areas: labels.areas.map(({ id, score, reasons }) => ({ id, score, reasons })),
    jurisdiction: labels.jurisdiction,
    kind: labels.kind,
    relevance: labels.relevance,
  });
  return true;
}

export interface LabelHistoryEntry {
  at: string;
  cause: LabelCause;
  classifierVersion: string;
  areas: string[];
  jurisdiction: string | null;
  kind: string | null;
  relevance: string | null;
}

/** Newest first. */
export async function labelHistory(db: Db, documentId: string): Promise<LabelHistoryEntry[]> {
  const rows = await db
    .select()
    .from(documentLabels)
    .where(eq(documentLabels.documentId, documentId))
    .orderBy(desc(documentLabels.at), desc(documentLabels.id));
  return rows.map((row) => ({
    at: row.at.toISOString(),
    cause: row.cause as LabelCause,
    classifierVersion: row.classifierVersion,
    areas: row.areas.map((area) => area.id),
    jurisdiction: row.jurisdiction,
    kind: row.kind,
    relevance: row.relevance,
  }));
}
