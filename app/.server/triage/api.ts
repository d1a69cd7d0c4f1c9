/** The API's side of triage and obligations: the token's creator as the actor, the register's export audited. */
import { eq } from "drizzle-orm";
import type { AuthenticatedToken } from "../api/tokens.ts";
import { recordAudit } from "../audit/record.ts";
import type { Database } from "../db/client.ts";
import { user } from "../db/schema/auth.ts";
import { listObligations, type ObligationFilters } from "./obligations.ts";
import { getTriage, proposedTriage, type TriageActor, type TriageView, triageHistoryOf } from "./store.ts";

export async function tokenTriageActor(
  database: Database,
  token: AuthenticatedToken,
  origin: { ip?: string | undefined; userAgent?: string | undefined },
): Promise<TriageActor> {
  const [creator] = await database.db
    .select({ name: user.name, email: user.email })
    .from(user)
    .where(eq(user.id, token.createdBy));
  return {
    organizationId: token.organizationId,
    userId: token.createdBy,
    name: creator?.name || creator?.email || "API",
    email: creator?.email ?? token.createdByEmail,
    ip: origin.ip,
    userAgent: origin.userAgent,
    tokenId: token.tokenId,
  };
}

/** The triage and its history; a document not triaged yet as it would start. undefined outside the reach. */
export async function triageWithHistory(database: Database, organizationId: string, documentId: string) {
  const current = await getTriage(database.db, organizationId, documentId);
  if (current === undefined) return undefined;
  let triage: TriageView;
  if (current) triage = current;
  else {
    const proposal = await proposedTriage(database.db, organizationId, documentId);
    triage = {
      documentId,
      status: "new",
      assignee: null,
      dueOn: proposal?.dueOn ?? null,
      dueSource: proposal?.dueSource ?? null,
      impact: null,
      rationale: "",
      overdue: false,
      updatedAt: new Date().toISOString(),
      updatedBy: null,
    };
  }
  return { triage, history: await triageHistoryOf(database.db, organizationId, documentId) };
}

/** The register for an export; exporting (it names people) is audited. */
export async function exportObligations(
  database: Database,
  caller: { organizationId: string; actor: { id: string; email: string } | null; detail?: Record<string, unknown> },
  origin: { ip?: string | undefined; userAgent?: string | undefined },
  filters: ObligationFilters,
  format: "json" | "csv",
) {
  const rows = await listObligations(database.db, caller.organizationId, filters);
  await recordAudit(database.db, {
    organizationId: caller.organizationId,
    actor: caller.actor,
    action: "obligations.exported",
    object: null,
    ip: origin.ip,
    userAgent: origin.userAgent,
    detail: { format, rows: rows.length, ...(caller.detail ?? {}) },
  });
  return rows;
}
