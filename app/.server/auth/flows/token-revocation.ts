/**
 * API tokens follow their creator's access: a suspension, a demotion to plain member or a removal
 * ends every live token they created in that organisation. Auth's member flows call it in their
 * own transaction; the tokens themselves are the API's (api/tokens.ts).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../audit/executor.ts";
import { recordAudit } from "../../audit/record.ts";
import { apiTokens } from "../../db/schema/api.ts";

/** Who did it, for the `token.*` audit events. */
export interface TokenAuditContext {
  actor: { id: string; email: string };
  ip?: string | undefined;
  userAgent?: string | undefined;
}

/**
 * Revokes every live token a user created in an organisation (suspension, demotion, removal),
 * each with a `token.revoked` event naming the reason. Returns how many were revoked.
 */
export async function revokeTokensOf(
  tx: Executor,
  organizationId: string,
  userId: string,
  reason: "member.suspended" | "member.role_changed" | "member.removed",
  audit: TokenAuditContext,
): Promise<number> {
  return tx.transaction(async (inner) => {
    const revoked = await inner
      .update(apiTokens)
      .set({ revokedAt: sql`now()` })
      .where(
        and(eq(apiTokens.organizationId, organizationId), eq(apiTokens.createdBy, userId), isNull(apiTokens.revokedAt)),
      )
      .returning({ id: apiTokens.id, name: apiTokens.name });
    for (const row of revoked) {
      await recordAudit(inner, {
        organizationId,
        actor: audit.actor,
        action: "token.revoked",
        object: { type: "api_token", id: row.id },
        ip: audit.ip,
        userAgent: audit.userAgent,
        detail: { name: row.name, reason, createdBy: userId },
      });
    }
    return revoked.length;
  });
}
