/** Sign-in: email and password under the throttle (limits.ts), then a TOTP or recovery code. */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { session, user } from "../../db/schema/auth.ts";
import { sessionTokenOf, setCookiesOf } from "../cookies.ts";
import { accountLock, clearSignInFailures, recordSignInFailure } from "../limits.ts";
import { AuthError, type RequestMeta, type WithCookies } from "../types.ts";
import { type AuthContext, lockCode, toLocale } from "./context.ts";
import { secondFactor } from "./second-factor.ts";
import { passwordRefusedBySso } from "./sso-policy.ts";

/** How long the answer to a second factor is kept for the same challenge and code sent again. */
const repeatWindowMs = 30_000;

/** better-auth's signed two-factor cookie of a request: the sign-in it is the second step of. */
function twoFactorChallenge(headers: Headers): string | null {
  return /(?:^|;\s*)(?:__Secure-)?vn\.two_factor=([^;]+)/.exec(headers.get("cookie") ?? "")?.[1] ?? null;
}

export function signInFlow(ctx: AuthContext) {
  const { db, log, auth, limiter, authHeaders, auditForUser, pendingTwoFactorUser } = ctx;
  const { markMfaVerified, claimTotpStep, noteDevice } = secondFactor(ctx);
  /**
   * A code form sent twice (Enter pressed again, before the page's script runs, while the first
   * request is still on its way) reaches us twice with the same challenge and code. The browser
   * keeps only the second answer, and better-auth had consumed the challenge for the first: the
   * person was back at the login page although signed in (issue 37 item 12). The same challenge
   * and code get the same answer, the session the first request made, for a few seconds.
   */
  const answered = new Map<string, { at: number; cookies: Promise<string[]> }>();
  function remembered(key: string): Promise<string[]> | undefined {
    const now = Date.now();
    for (const [entry, { at }] of answered) if (now - at > repeatWindowMs) answered.delete(entry);
    return answered.get(key)?.cookies;
  }
  async function verifyOnce(method: "totp" | "recovery", code: string, meta: RequestMeta): Promise<string[]> {
    const cleaned = method === "totp" ? code.replace(/\s+/g, "") : code.trim();
    const response =
      method === "totp"
        ? await auth.api.verifyTOTP({ body: { code: cleaned }, headers: authHeaders(meta), asResponse: true })
        : await auth.api.verifyBackupCode({ body: { code: cleaned }, headers: authHeaders(meta), asResponse: true });
    const cookies = setCookiesOf(response);
    const body = response.ok
      ? ((await response.json()) as { user?: { id: string; email: string } })
      : ({} as { user?: undefined });
    const token = sessionTokenOf(cookies);
    if (!response.ok || !body.user || !token) {
      const pending = await pendingTwoFactorUser(meta);
      if (pending) {
        await recordSignInFailure(db, pending.email, meta.ip);
        await auditForUser(db, pending.id, pending.email, "auth.sign_in_failed", meta, null, { step: method });
      }
      throw new AuthError("invalid_code");
    }
    if (method === "totp" && !(await claimTotpStep(body.user.id, cleaned))) {
      await db.delete(session).where(eq(session.token, token));
      await auditForUser(db, body.user.id, body.user.email, "auth.sign_in_failed", meta, null, {
        step: "totp",
        reason: "code_reused",
      });
      throw new AuthError("code_reused");
    }
    await markMfaVerified(token);
    await clearSignInFailures(db, body.user.email);
    await auditForUser(db, body.user.id, body.user.email, "auth.sign_in", meta, null, { method });
    const [profile] = await db.select({ locale: user.locale }).from(user).where(eq(user.id, body.user.id));
    await noteDevice(body.user.id, body.user.email, toLocale(profile?.locale), meta);
    return cookies;
  }

  return {
    /** Email and password. Failures are answered alike; too many from one address, or from several, refuse (limits.ts). */
    async signIn(
      email: string,
      password: string,
      meta: RequestMeta,
    ): Promise<WithCookies<{ next: "second_factor" | "enrol" }>> {
      const normalized = email.trim().toLowerCase();
      const limited = await (await limiter()).consume(meta.ip);
      if (!limited.allowed) throw new AuthError("rate_limited", limited.retryAfterSeconds);
      const lock = await accountLock(db, normalized, meta.ip);
      if (lock.locked) throw new AuthError(lockCode(lock), lock.retryAfterSeconds);
      const [target] = await db
        .select({ id: user.id, banned: user.banned, twoFactorEnabled: user.twoFactorEnabled })
        .from(user)
        .where(eq(user.email, normalized));
      // The organisation signs its members in through its IdP; only its break-glass owner keeps a password.
      if (target && (await passwordRefusedBySso(db, target.id))) {
        await auditForUser(db, target.id, normalized, "auth.sign_in_failed", meta, null, {
          step: "password",
          reason: "sso_required",
        });
        throw new AuthError("sso_required");
      }
      const response = await auth.api.signInEmail({
        body: { email: normalized, password, rememberMe: true },
        headers: authHeaders(meta),
        asResponse: true,
      });
      if (!response.ok) {
        await recordSignInFailure(db, normalized, meta.ip);
        if (target) {
          await auditForUser(db, target.id, normalized, "auth.sign_in_failed", meta, null, { step: "password" });
        } else {
          log.info({ requestIp: meta.ip }, "sign-in failed for an unknown account");
        }
        const after = await accountLock(db, normalized, meta.ip);
        if (after.locked) throw new AuthError(lockCode(after), after.retryAfterSeconds);
        throw new AuthError("invalid_credentials");
      }
      const body = (await response.json()) as { twoFactorRedirect?: boolean };
      return {
        value: { next: body.twoFactorRedirect ? "second_factor" : "enrol" },
        setCookies: setCookiesOf(response),
      };
    },

    /** The second factor at sign-in: a TOTP code (once) or a recovery code (once); the same request again gets the same answer. */
    verifySecondFactor(method: "totp" | "recovery", code: string, meta: RequestMeta): Promise<string[]> {
      const challenge = twoFactorChallenge(meta.headers);
      if (!challenge) return verifyOnce(method, code, meta);
      const key = createHash("sha256")
        .update(`${method}\n${code.replace(/\s+/g, "")}\n${challenge}`)
        .digest("hex");
      const earlier = remembered(key);
      if (earlier) return earlier;
      const cookies = verifyOnce(method, code, meta);
      answered.set(key, { at: Date.now(), cookies });
      // A refusal is not kept: the next try is checked (and counted) again.
      cookies.catch(() => answered.delete(key));
      return cookies;
    },
  };
}
