/**
 * The document page's server side: opening a document (read receipt, its alerts marked read and
 * `document.read` in the audit trail, in one transaction) and what the page shows besides the
 * document (the classifier's reasons, and for admins who opened it and when).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "../../.server/audit/record.ts";
import { can, type MemberInfo } from "../../.server/auth/permissions.ts";
import type { Viewer } from "../../.server/collab/notes.ts";
import { readersOf, recordRead } from "../../.server/collab/reads.ts";
import type { Database, Db } from "../../.server/db/client.ts";
import { team, teamMember, user } from "../../.server/db/schema/auth.ts";
import { type DocumentDetail, getDocument } from "../../.server/documents/search.ts";

export interface RequestOrigin {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export interface ReaderView {
  userId: string;
  name: string;
  email: string;
  firstReadAt: string;
  lastReadAt: string;
}

/** The classifier's reasons for the single labels, in both languages (null for unclassified documents). */
export interface LabelReasons {
  jurisdiction: { es: string; en: string };
  kind: { es: string; en: string };
  relevance: { es: string; en: string };
}

export interface OpenedDocument {
  document: DocumentDetail;
  reasons: LabelReasons | null;
  /** Null when the member may not see read receipts. */
  readers: ReaderView[] | null;
}

/** The member as collab/ sees them: their groups in this organisation. */
export async function viewerOf(db: Db, member: MemberInfo): Promise<Viewer> {
  const rows = await db
    .select({ id: team.id })
    .from(teamMember)
    .innerJoin(team, eq(team.id, teamMember.teamId))
    .where(and(eq(teamMember.userId, member.userId), eq(team.organizationId, member.organizationId)));
  return {
    userId: member.userId,
    email: member.email,
    organizationId: member.organizationId,
    groupIds: rows.map((row) => row.id),
    role: member.role,
    language: member.locale,
  };
}

/** Opens a document for a member: null when it is unknown or out of their organisation's reach. */
export async function openDocument(
  database: Database,
  member: MemberInfo,
  id: string,
  origin: RequestOrigin = {},
): Promise<OpenedDocument | null> {
  const document = await getDocument(database, id, member.organizationId);
  if (!document) return null;
  await database.db.transaction(async (tx) => {
    await recordRead(tx, member, document.id);
    await recordAudit(tx, {
      organizationId: member.organizationId,
      actor: { id: member.userId, email: member.email },
      action: "document.read",
      object: { type: "document", id: document.id },
      ip: origin.ip,
      userAgent: origin.userAgent,
      detail: { source: document.source, sourceId: document.sourceId },
    });
  });
  const [row] = await database.rows<{ classification: Record<string, string> | null }>(
    sql`select classification from documents where id = ${document.id}::uuid`,
  );
  const c = row?.classification;
  const pair = (es: string | undefined, en: string | undefined) => ({ es: es ?? "", en: en ?? es ?? "" });
  const reasons: LabelReasons | null = c
    ? {
        jurisdiction: pair(c.jurisdictionReason, c.jurisdictionReasonEn),
        kind: pair(c.kindReason, c.kindReasonEn),
        relevance: pair(c.relevanceReason, c.relevanceReasonEn),
      }
    : null;
  let readers: ReaderView[] | null = null;
  if (can(member, "documents.readers")) {
    const receipts = (await readersOf(database.db, await viewerOf(database.db, member), document.id)) ?? [];
    const ids = receipts.map((r) => r.userId);
    const people =
      ids.length > 0
        ? await database.db
            .select({ id: user.id, name: user.name, email: user.email })
            .from(user)
            .where(inArray(user.id, ids))
        : [];
    const byId = new Map(people.map((p) => [p.id, p]));
    readers = receipts.map((r) => ({
      userId: r.userId,
      name: byId.get(r.userId)?.name ?? r.userId,
      email: byId.get(r.userId)?.email ?? "",
      firstReadAt: new Date(r.firstReadAt).toISOString(),
      lastReadAt: new Date(r.lastReadAt).toISOString(),
    }));
  }
  return { document, reasons, readers };
}
