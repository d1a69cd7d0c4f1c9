/** TOTP enrolment, recovery codes, and the operator's MFA reset. */
import { symmetricDecrypt } from "better-auth/crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import { account, passkey, session, totpLastStep, twoFactor, user } from "../../db/schema/auth.ts";
import { sessionTokenOf, setCookiesOf } from "../cookies.ts";
import { AuthError, type RequestMeta, type SessionInfo } from "../types.ts";
import type { AuthContext } from "./context.ts";
import { secondFactor } from "./second-factor.ts";

export function mfaFlow(ctx: AuthContext) {
  const { db, auth, authHeaders, secretConfig, auditForUser } = ctx;
  const { markMfaVerified, claimTotpStep, endOtherSessions, noteDevice } = secondFactor(ctx);
  return {
    /** The pending TOTP enrolment of a signed-in user: URI and recovery codes (shown until verified). */
    async enrolment(current: SessionInfo): Promise<{ totpURI: string; recoveryCodes: string[] } | null> {
      const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, current.userId));
      if (!row || row.verified) return null;
      const key = await secretConfig();
      const secret = await symmetricDecrypt({ key, data: row.secret });
      const codes = JSON.parse(
        row.backupCodes.startsWith("[") ? row.backupCodes : await symmetricDecrypt({ key, data: row.backupCodes }),
      ) as string[];
      const { createOTP } = await import("@better-auth/utils/otp");
      const totpURI = createOTP(secret, { digits: 6, period: 30 }).url("Vigía Normativo", current.email);
      return { totpURI, recoveryCodes: codes };
    },

    /** Whether the user has a password (SSO accounts have none: they enrol and verify without). */
    async hasPassword(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: account.id })
        .from(account)
        .where(and(eq(account.userId, userId), eq(account.providerId, "credential"), isNotNull(account.password)));
      return !!row;
    },

    /**
     * The product's own second factor after an IdP sign-in whose MFA is not trusted: the member's
     * TOTP code (once) marks this session verified.
     */
    async verifySessionTotp(current: SessionInfo, code: string, meta: RequestMeta): Promise<void> {
      const cleaned = code.replace(/\s+/g, "");
      if (!current.twoFactorEnabled || !(await claimTotpStep(current.userId, cleaned))) {
        await auditForUser(db, current.userId, current.email, "auth.sign_in_failed", meta, null, { step: "sso_totp" });
        throw new AuthError("invalid_code");
      }
      await markMfaVerified(current.token);
      await auditForUser(db, current.userId, current.email, "auth.sign_in", meta, null, { method: "sso_totp" });
      await noteDevice(current.userId, current.email, current.locale, meta);
    },

    /** Starts (or restarts) TOTP enrolment for a signed-in user who has none verified (no password for SSO accounts). */
    async startEnrolment(password: string | undefined, meta: RequestMeta): Promise<string[]> {
      const response = await auth.api.enableTwoFactor({
        body: password === undefined ? {} : { password },
        headers: authHeaders(meta),
        asResponse: true,
      });
      if (!response.ok) throw new AuthError("invalid_password");
      return setCookiesOf(response);
    },

    /** Confirms enrolment with a first code: MFA on, this session verified, the others ended. */
    async confirmEnrolment(current: SessionInfo, code: string, meta: RequestMeta): Promise<string[]> {
      const cleaned = code.replace(/\s+/g, "");
      // better-auth replaces the session on enrolment: what the new one keeps is read first.
      const [before] = await db
        .select({ ssoProviderId: session.ssoProviderId })
        .from(session)
        .where(eq(session.token, current.token));
      const response = await auth.api.verifyTOTP({
        body: { code: cleaned },
        headers: authHeaders(meta),
        asResponse: true,
      });
      if (!response.ok) {
        await auditForUser(db, current.userId, current.email, "auth.sign_in_failed", meta, null, { step: "enrolment" });
        throw new AuthError("invalid_code");
      }
      const cookies = setCookiesOf(response);
      const token = sessionTokenOf(cookies) ?? current.token;
      if (!(await claimTotpStep(current.userId, cleaned))) throw new AuthError("code_reused");
      await markMfaVerified(token, before?.ssoProviderId ?? null);
      const ended = await endOtherSessions(current.userId, token);
      await db.transaction(async (tx) => {
        await auditForUser(tx, current.userId, current.email, "mfa.enrolled", meta, null, { method: "totp" });
        if (ended > 0)
          await auditForUser(tx, current.userId, current.email, "session.ended", meta, null, { others: ended });
      });
      await noteDevice(current.userId, current.email, current.locale, meta);
      return cookies;
    },

    async regenerateRecoveryCodes(current: SessionInfo, password: string, meta: RequestMeta): Promise<string[]> {
      const response = await auth.api.generateBackupCodes({
        body: { password },
        headers: authHeaders(meta),
        asResponse: true,
      });
      if (!response.ok) throw new AuthError("invalid_password");
      const body = (await response.json()) as { backupCodes: string[] };
      await auditForUser(db, current.userId, current.email, "mfa.recovery_codes_regenerated", meta);
      return body.backupCodes;
    },

    /** Operator: remove a user's second factor and sessions (they enrol again at next sign-in). */
    async resetMfa(email: string): Promise<boolean> {
      const normalized = email.trim().toLowerCase();
      const [target] = await db.select({ id: user.id }).from(user).where(eq(user.email, normalized));
      if (!target) return false;
      await db.transaction(async (tx) => {
        await tx.delete(twoFactor).where(eq(twoFactor.userId, target.id));
        await tx.delete(totpLastStep).where(eq(totpLastStep.userId, target.id));
        await tx.delete(passkey).where(eq(passkey.userId, target.id));
        await tx.update(user).set({ twoFactorEnabled: false }).where(eq(user.id, target.id));
        await tx.delete(session).where(eq(session.userId, target.id));
        await auditForUser(tx, target.id, normalized, "mfa.reset", null, null, { by: "operator" });
      });
      return true;
    },
  };
}
