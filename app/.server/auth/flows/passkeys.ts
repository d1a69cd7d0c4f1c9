/** Passkeys: as the second factor at sign-in, and registered or removed by their owner. */
import { and, asc, eq } from "drizzle-orm";
import { passkey, user } from "../../db/schema/auth.ts";
import { sessionTokenOf, setCookiesOf } from "../cookies.ts";
import { clearSignInFailures, recordSignInFailure } from "../limits.ts";
import { AuthError, type RequestMeta, type SessionInfo, type WithCookies } from "../types.ts";
import { type AuthContext, toLocale } from "./context.ts";
import { secondFactor } from "./second-factor.ts";

export function passkeyFlow(ctx: AuthContext) {
  const { db, auth, authHeaders, auditForUser, pendingTwoFactorUser } = ctx;
  const { markMfaVerified, noteDevice } = secondFactor(ctx);
  return {
    /**
     * A passkey as the second factor, step 1: the WebAuthn request options (and the challenge
     * cookie) for the account whose password was just accepted; null when no password step is pending.
     */
    async passkeyChallenge(meta: RequestMeta): Promise<WithCookies<unknown> | null> {
      const pending = await pendingTwoFactorUser(meta);
      if (!pending) return null;
      // Only this account's credentials may answer (the library lists them only for a full session).
      const credentials = await db
        .select({ id: passkey.credentialID, transports: passkey.transports })
        .from(passkey)
        .where(eq(passkey.userId, pending.id));
      if (credentials.length === 0) throw new AuthError("passkey_failed");
      const response = await auth.api.generatePasskeyAuthenticationOptions({
        headers: authHeaders(meta),
        asResponse: true,
      });
      if (!response.ok) return null;
      const options = (await response.json()) as Record<string, unknown>;
      options.allowCredentials = credentials.map((row) => ({
        id: row.id,
        type: "public-key",
        ...(row.transports ? { transports: row.transports.split(",") } : {}),
      }));
      return { value: options, setCookies: setCookiesOf(response) };
    },

    /**
     * Step 2: the authenticator's answer. It must come from a passkey of the account whose
     * password was accepted; then the session is MFA-verified, exactly as after a TOTP code.
     */
    async verifyPasskey(answer: unknown, meta: RequestMeta): Promise<string[]> {
      const pending = await pendingTwoFactorUser(meta);
      if (!pending) throw new AuthError("invalid_code");
      const credentialId = (answer as { id?: unknown } | null)?.id;
      const [owned] =
        typeof credentialId === "string"
          ? await db
              .select({ userId: passkey.userId })
              .from(passkey)
              .where(and(eq(passkey.credentialID, credentialId), eq(passkey.userId, pending.id)))
          : [];
      const response = owned
        ? await auth.api.verifyPasskeyAuthentication({
            body: { response: answer as never },
            headers: authHeaders(meta),
            asResponse: true,
          })
        : null;
      const cookies = response ? setCookiesOf(response) : [];
      const token = sessionTokenOf(cookies);
      if (!response?.ok || !token) {
        await recordSignInFailure(db, pending.email, meta.ip);
        await auditForUser(db, pending.id, pending.email, "auth.sign_in_failed", meta, null, { step: "passkey" });
        throw new AuthError("invalid_code");
      }
      await markMfaVerified(token);
      await clearSignInFailures(db, pending.email);
      await auditForUser(db, pending.id, pending.email, "auth.sign_in", meta, null, { method: "passkey" });
      const [profile] = await db.select({ locale: user.locale }).from(user).where(eq(user.id, pending.id));
      await noteDevice(pending.id, pending.email, toLocale(profile?.locale), meta);
      // The password step's pending cookie is spent.
      return [...cookies, "vn.two_factor=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"];
    },

    /** Registering a passkey, step 1: the WebAuthn creation options for the signed-in user. */
    async passkeyRegistrationOptions(meta: RequestMeta): Promise<WithCookies<unknown>> {
      const response = await auth.api.generatePasskeyRegistrationOptions({
        headers: authHeaders(meta),
        asResponse: true,
      });
      if (!response.ok) throw new AuthError(response.status === 403 ? "stale_session" : "passkey_failed");
      return { value: await response.json(), setCookies: setCookiesOf(response) };
    },

    /** Step 2: the new credential, stored for the signed-in user and audited. */
    async registerPasskey(current: SessionInfo, answer: unknown, name: string, meta: RequestMeta): Promise<void> {
      const response = await auth.api.verifyPasskeyRegistration({
        body: { response: answer, name },
        headers: authHeaders(meta),
        asResponse: true,
      });
      if (!response.ok) throw new AuthError("passkey_failed");
      const created = (await response.json()) as { id?: string };
      await auditForUser(db, current.userId, current.email, "mfa.passkey_added", meta, {
        type: "passkey",
        id: created.id ?? "",
      });
    },

    async listPasskeys(userId: string) {
      return db
        .select({ id: passkey.id, name: passkey.name, createdAt: passkey.createdAt })
        .from(passkey)
        .where(eq(passkey.userId, userId))
        .orderBy(asc(passkey.createdAt));
    },

    async deletePasskey(current: SessionInfo, id: string, meta: RequestMeta): Promise<boolean> {
      return db.transaction(async (tx) => {
        const removed = await tx
          .delete(passkey)
          .where(and(eq(passkey.id, id), eq(passkey.userId, current.userId)))
          .returning({ id: passkey.id });
        if (removed.length === 0) return false;
        await auditForUser(tx, current.userId, current.email, "mfa.passkey_removed", meta, { type: "passkey", id });
        return true;
      });
    },
  };
}
