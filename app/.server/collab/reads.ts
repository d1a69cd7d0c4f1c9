/** Read receipts: who in the organisation opened a document and when. Opening a document marks its alerts read. */
import { and, asc, eq, sql } from "drizzle-orm";
import { markDocumentAlertsRead } from "../alerts/inbox.ts";
import type { Db } from "../db/client.ts";
import { documentReads } from "../db/schema.ts";
import type { Viewer } from "./notes.ts";

export async function recordRead(
  tx: Db,
  viewer: Pick<Viewer, "userId" | "organizationId">,
  documentId: string,
): Promise<void> {
  await tx
    .insert(documentReads)
    .values({ organizationId: viewer.organizationId, userId: viewer.userId, documentId })
    .onConflictDoUpdate({ target: [documentReads.userId, documentReads.documentId], set: { lastReadAt: sql`now()` } });
  await markDocumentAlertsRead(tx, viewer.userId, documentId);
}

export interface Reader {
  userId: string;
  firstReadAt: Date;
  lastReadAt: Date;
}

/**
 * For admins and members of the document's group(s) (documentGroupIds: the groups whose profiles
 * matched it, decided by the caller); undefined when the viewer may not see receipts.
 */
export async function readersOf(
  db: Db,
  viewer: Viewer,
  documentId: string,
  documentGroupIds: string[] = [],
): Promise<Reader[] | undefined> {
  const allowed = viewer.role !== "member" || viewer.groupIds.some((id) => documentGroupIds.includes(id));
  if (!allowed) return undefined;
  return db
    .select({
      userId: documentReads.userId,
      firstReadAt: documentReads.firstReadAt,
      lastReadAt: documentReads.lastReadAt,
    })
    .from(documentReads)
    .where(and(eq(documentReads.organizationId, viewer.organizationId), eq(documentReads.documentId, documentId)))
    .orderBy(asc(documentReads.firstReadAt));
}
