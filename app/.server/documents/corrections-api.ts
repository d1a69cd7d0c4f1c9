/** The API's side of corrections: the token's creator as the actor, the reach rule, the export audited. */
import { eq } from "drizzle-orm";
import { recordAudit } from "../audit/record.ts";
import type { Database } from "../db/client.ts";
import { user } from "../db/schema/auth.ts";
import {
  type CorrectionInput,
  type CorrectionOutcome,
  correctArea,
  correctionsOf,
  listCorrections,
} from "./corrections.ts";
import { getDocument } from "./search.ts";

export interface TokenCaller {
  organizationId: string;
  tokenId: string;
  createdBy: string;
  ip?: string | undefined;
  userAgent?: string | undefined;
}

/** A correction made with an API token: "corrected by" names the token's creator. */
export async function correctViaApi(
  database: Database,
  caller: TokenCaller,
  documentId: string,
  input: CorrectionInput,
  lang: "es" | "en",
  rematch: (documentId: string) => Promise<void>,
): Promise<(CorrectionOutcome & { areas?: unknown }) | { ok: false; error: "not_found" }> {
  // The reach rule: a feed entry outside the organisation's feeds is "not found".
  if (!(await getDocument(database, documentId, caller.organizationId))) return { ok: false, error: "not_found" };
  const [creator] = await database.db
    .select({ name: user.name, email: user.email })
    .from(user)
    .where(eq(user.id, caller.createdBy));
  const outcome = await correctArea(
    database.db,
    (tx, event) => recordAudit(tx, event),
    {
      organizationId: caller.organizationId,
      userId: caller.createdBy,
      name: creator?.name || creator?.email || "API",
      email: creator?.email ?? "",
      ip: caller.ip,
      userAgent: caller.userAgent,
      tokenId: caller.tokenId,
    },
    documentId,
    input,
    lang,
  );
  if (!outcome.ok) return outcome;
  await rematch(documentId);
  const after = await getDocument(database, documentId, caller.organizationId);
  return { ...outcome, areas: after?.areas ?? [] };
}

export async function documentCorrectionsViaApi(database: Database, organizationId: string, documentId: string) {
  if (!(await getDocument(database, documentId, organizationId))) return null;
  return (await correctionsOf(database.db, organizationId, [documentId])).get(documentId) ?? [];
}

/** Every correction of the organisation; the export (it names people) is audited. */
export async function exportCorrections(
  database: Database,
  caller: { organizationId: string; actor: { id: string; email: string } | null; detail?: Record<string, unknown> },
  origin: { ip?: string | undefined; userAgent?: string | undefined },
  format: "json" | "csv",
) {
  const rows = await listCorrections(database.db, caller.organizationId);
  await recordAudit(database.db, {
    organizationId: caller.organizationId,
    actor: caller.actor,
    action: "corrections.exported",
    object: null,
    ip: origin.ip,
    userAgent: origin.userAgent,
    detail: { format, rows: rows.length, ...(caller.detail ?? {}) },
  });
  return rows;
}
