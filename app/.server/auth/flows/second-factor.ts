/** What every second-factor path shares: the verified mark, TOTP replay guard, new-device mail. */
import { createHash } from "node:crypto";
import { symmetricDecrypt } from "better-auth/crypto";
import { and, count, eq, ne, sql } from "drizzle-orm";
import { knownDevice, session, totpLastStep, twoFactor } from "../../db/schema/auth.ts";
import { type MailLocale, newDeviceMail, queueMail } from "../mails.ts";
import { matchingStep } from "../totp.ts";
import type { RequestMeta } from "../types.ts";
import type { AuthContext } from "./context.ts";

function deviceFingerprint(userAgent: string): string {
  return createHash("sha256").update(userAgent).digest("hex").slice(0, 32);
}

export function secondFactor(ctx: AuthContext) {
  const { db, appUrl, secretConfig } = ctx;

  /**
   * Marks the session `token` as past its second factor. `ssoProviderId`: the identity provider of
   * the session it replaces (better-auth issues a new one at TOTP enrolment), kept so that an IdP
   * session stays one ("SSO required" ends only password sessions).
   */
  async function markMfaVerified(token: string, ssoProviderId: string | null = null): Promise<void> {
    await db
      .update(session)
      .set({ mfaVerifiedAt: new Date(), ...(ssoProviderId ? { ssoProviderId } : {}) })
      .where(eq(session.token, token));
  }

  /** Remembers the accepted step; false when this step (or a later one) was already used. */
  async function claimTotpStep(userId: string, code: string): Promise<boolean> {
    const [row] = await db.select({ secret: twoFactor.secret }).from(twoFactor).where(eq(twoFactor.userId, userId));
    if (!row) return false;
    const secret = await symmetricDecrypt({ key: await secretConfig(), data: row.secret });
    const step = matchingStep(secret, code);
    if (step === null) return false;
    const claimed = await db
      .insert(totpLastStep)
      .values({ userId, step })
      .onConflictDoUpdate({
        target: totpLastStep.userId,
        set: { step },
        setWhere: sql`${totpLastStep.step} < ${step}`,
      })
      .returning({ step: totpLastStep.step });
    return claimed.length > 0;
  }

  async function endOtherSessions(userId: string, keepToken: string | null): Promise<number> {
    const ended = await db
      .delete(session)
      .where(keepToken ? and(eq(session.userId, userId), ne(session.token, keepToken)) : eq(session.userId, userId))
      .returning({ id: session.id });
    return ended.length;
  }

  async function noteDevice(userId: string, email: string, locale: MailLocale, meta: RequestMeta): Promise<void> {
    const fingerprint = deviceFingerprint(meta.userAgent);
    const inserted = await db
      .insert(knownDevice)
      .values({ userId, fingerprint })
      .onConflictDoUpdate({ target: [knownDevice.userId, knownDevice.fingerprint], set: { lastSeenAt: new Date() } })
      .returning({ lastSeenAt: knownDevice.lastSeenAt, fingerprint: knownDevice.fingerprint });
    const [devices] = await db.select({ n: count() }).from(knownDevice).where(eq(knownDevice.userId, userId));
    // The first device (enrolment) is not news; a later unseen one is.
    const isNew = inserted.length > 0 && Date.now() - new Date(inserted[0]!.lastSeenAt).getTime() < 2000;
    if (isNew && (devices?.n ?? 0) > 1) {
      const [existing] = await db
        .select({ n: count() })
        .from(knownDevice)
        .where(and(eq(knownDevice.userId, userId), eq(knownDevice.fingerprint, fingerprint)));
      if ((existing?.n ?? 0) === 1) {
        await queueMail(
          db,
          "new_device",
          email,
          newDeviceMail(locale, {
            at: new Date(),
            userAgent: meta.userAgent,
            ip: meta.ip,
            sessionsUrl: appUrl("/app/account"),
          }),
        );
      }
    }
  }

  return { markMfaVerified, claimTotpStep, endOtherSessions, noteDevice };
}
