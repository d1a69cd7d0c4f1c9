/** Password change (signed in) and password reset (by mailed link). */
import { and, eq, gt } from "drizzle-orm";
import { recordAudit } from "../../audit/record.ts";
import { session, user, verification } from "../../db/schema/auth.ts";
import { sessionTokenOf, setCookiesOf } from "../cookies.ts";
import { AuthError, type RequestMeta, type SessionInfo } from "../types.ts";
import { type AuthContext, checkPassword } from "./context.ts";
import { secondFactor } from "./second-factor.ts";
import { passwordRefusedBySso } from "./sso-policy.ts";

export function passwordFlow(ctx: AuthContext) {
  const { db, auth, limiter, authHeaders, membershipsOf, auditForUser } = ctx;
  const { markMfaVerified } = secondFactor(ctx);
  return {
    async changePassword(
      current: SessionInfo,
      input: { currentPassword: string; newPassword: string },
      meta: RequestMeta,
    ): Promise<string[]> {
      checkPassword(input.newPassword);
      const response = await auth.api.changePassword({
        body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
        headers: authHeaders(meta),
        asResponse: true,
      });
      if (!response.ok) throw new AuthError("invalid_password");
      const cookies = setCookiesOf(response);
      const token = sessionTokenOf(cookies);
      if (token) await markMfaVerified(token);
      await auditForUser(db, current.userId, current.email, "auth.password_changed", meta);
      return cookies;
    },

    async requestPasswordReset(email: string, meta: RequestMeta): Promise<void> {
      const limited = await (await limiter()).consume(meta.ip);
      if (!limited.allowed) throw new AuthError("rate_limited", limited.retryAfterSeconds);
      const address = email.trim().toLowerCase();
      // A member whose organisation requires SSO has no password to reset (same answer, no mail).
      const [bound] = await db.select({ id: user.id }).from(user).where(eq(user.email, address));
      if (bound && (await passwordRefusedBySso(db, bound.id))) return;
      await auth.api.requestPasswordReset({
        body: { email: address, redirectTo: "/app/login" },
        headers: authHeaders(meta),
      });
      // Audited on the account it names (the requester is anonymous: no actor); an unknown address
      // leaves no trace, as the page's answer is the same either way.
      const [target] = await db.select({ id: user.id }).from(user).where(eq(user.email, address));
      if (target) {
        for (const membership of await membershipsOf(db, target.id)) {
          await recordAudit(db, {
            organizationId: membership.organizationId,
            actor: null,
            action: "auth.password_reset_requested",
            object: { type: "user", id: target.id },
            ip: meta.ip,
            userAgent: meta.userAgent,
          });
        }
      }
    },

    async resetPassword(token: string, newPassword: string, meta: RequestMeta): Promise<void> {
      checkPassword(newPassword);
      // Whose token this is (better-auth keeps it as a verification row), read before it is used up.
      const [pending] = await db
        .select({ userId: verification.value })
        .from(verification)
        .where(and(eq(verification.identifier, `reset-password:${token}`), gt(verification.expiresAt, new Date())));
      const sessionsBefore = pending
        ? await db.select({ id: session.id }).from(session).where(eq(session.userId, pending.userId))
        : [];
      const response = await auth.api.resetPassword({
        body: { token, newPassword },
        headers: authHeaders(meta),
        asResponse: true,
      });
      if (!response.ok) throw new AuthError("invalid_token");
      if (!pending) return;
      const [account] = await db.select({ email: user.email }).from(user).where(eq(user.id, pending.userId));
      if (!account) return;
      // The password changed by the reset link (the link's holder acts as the account) and, with
      // revokeSessionsOnPasswordReset, every session of the account ended.
      await auditForUser(db, pending.userId, account.email, "auth.password_reset", meta);
      await auditForUser(db, pending.userId, account.email, "session.ended", meta, null, {
        sessions: sessionsBefore.length,
        reason: "password_reset",
      });
    },
  };
}
