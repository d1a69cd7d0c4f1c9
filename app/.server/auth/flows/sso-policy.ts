/** "SSO required" (issue 41): whether a user's password may still open a session. */
import { and, eq } from "drizzle-orm";
import type { Executor } from "../../audit/executor.ts";
import { member } from "../../db/schema/auth.ts";
import { ssoPolicy } from "../../db/schema/sso.ts";

/** True when one of the user's organisations requires SSO and the user is not its break-glass owner. */
export async function passwordRefusedBySso(executor: Executor, userId: string): Promise<boolean> {
  const rows = await executor
    .select({ breakGlass: ssoPolicy.breakGlassUserId })
    .from(member)
    .innerJoin(ssoPolicy, and(eq(ssoPolicy.organizationId, member.organizationId), eq(ssoPolicy.ssoRequired, true)))
    .where(eq(member.userId, userId));
  return rows.some((row) => row.breakGlass !== userId);
}
