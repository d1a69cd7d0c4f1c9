/**
 * The project's policy on top of better-auth: first-run setup, invitations, sign-in with the
 * lockout and per-IP limits, mandatory MFA (TOTP with no replay, recovery codes), sessions
 * (idle 12 h, absolute 7 days), members, roles and groups. Every state change writes its audit
 * event in the same transaction when the change is ours (organisations, members, invitations,
 * groups, sessions ended by us); where better-auth writes the rows itself (sign-in, MFA
 * verification, password change) the event follows right after its call.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { hashPassword, symmetricDecrypt } from "better-auth/crypto";
import { and, asc, count, desc, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import { revokeTokensOf, type TokenAuditContext } from "../api/tokens.ts";
import type { Executor } from "../audit/executor.ts";
import { recordAudit } from "../audit/record.ts";
import type { Config } from "../config.ts";
import type { Database, Db } from "../db/client.ts";
import {
  account,
  invitation,
  invitationGroup,
  knownDevice,
  member,
  organization,
  passkey,
  session,
  setupToken,
  team,
  teamMember,
  totpLastStep,
  twoFactor,
  user,
  verification,
} from "../db/schema/auth.ts";
import type { Logger } from "../logger.ts";
import { appendSetCookies, headersWithCookies, requestSessionToken, sessionTokenOf, setCookiesOf } from "./cookies.ts";
import {
  type AccountLock,
  accountLock,
  clearSignInFailures,
  createIpLimiter,
  type IpLimiter,
  recordSignInFailure,
} from "./limits.ts";
import { invitationMail, type MailLocale, newDeviceMail, passwordResetMail, queueMail } from "./mails.ts";
import { passwordProblem } from "./passwords.ts";
import { isRole, type MemberInfo, type Role } from "./permissions.ts";
import { type Auth, createAuth, sessionAbsoluteSeconds, sessionIdleSeconds } from "./server.ts";
import { matchingStep } from "./totp.ts";

/** An address refused for one account is told to slow down; a locked account is told so. */
function lockCode(lock: AccountLock): "locked" | "rate_limited" {
  return lock.scope === "address" ? "rate_limited" : "locked";
}

/** The admin who suspends or demotes a member, as the actor of the token revocations that follow. */
function tokenAudit(actor: MemberInfo, meta: RequestMeta): TokenAuditContext {
  return { actor: { id: actor.userId, email: actor.email }, ip: meta.ip, userAgent: meta.userAgent };
}

export const setupTokenHours = 24;
export const invitationDays = 7;

/** Who is asking: the request's headers (cookies), client IP and user agent. */
export interface RequestMeta {
  headers: Headers;
  ip: string;
  userAgent: string;
}

export interface SessionInfo {
  sessionId: string;
  token: string;
  userId: string;
  email: string;
  name: string;
  locale: MailLocale;
  createdAt: Date;
  lastSeenAt: Date;
  mfaVerified: boolean;
  twoFactorEnabled: boolean;
}

export type AuthErrorCode =
  | "invalid_credentials"
  | "locked"
  | "rate_limited"
  | "invalid_code"
  | "code_reused"
  | "invalid_token"
  | "password_too_short"
  | "password_too_long"
  | "password_common"
  | "email_taken"
  | "not_found"
  | "forbidden"
  | "invalid_password"
  | "stale_session"
  | "passkey_failed";

export class AuthError extends Error {
  override name = "AuthError";
  readonly code: AuthErrorCode;
  readonly retryAfterSeconds: number | undefined;
  constructor(code: AuthErrorCode, retryAfterSeconds?: number) {
    super(code);
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A result that carries cookies to set on the response. */
export interface WithCookies<T> {
  value: T;
  setCookies: string[];
}

export function hashSecretToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newToken(): string {
  return randomBytes(24).toString("base64url");
}

function slugFor(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);
  return `${base || "org"}-${randomBytes(3).toString("hex")}`;
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem === "too_short") throw new AuthError("password_too_short");
  if (problem === "too_long") throw new AuthError("password_too_long");
  if (problem === "common") throw new AuthError("password_common");
}

function toLocale(value: unknown): MailLocale {
  return value === "en" ? "en" : "es";
}

function deviceFingerprint(userAgent: string): string {
  return createHash("sha256").update(userAgent).digest("hex").slice(0, 32);
}

export function createAuthService(deps: { config: Config; database: Database; log: Logger }) {
  const { config, database, log } = deps;
  const db: Db = database.db;
  const appUrl = (pathname: string) => new URL(pathname, config.siteUrl).toString();
  let ipLimiter: IpLimiter | undefined;
  async function limiter(): Promise<IpLimiter> {
    if (!ipLimiter) ipLimiter = await createIpLimiter(database.pool);
    return ipLimiter;
  }

  const auth: Auth = createAuth(config, db, {
    async sendResetPassword({ user: target, token }) {
      const [row] = await db.select({ locale: user.locale }).from(user).where(eq(user.id, target.id));
      const url = appUrl(`/app/reset/${encodeURIComponent(token)}`);
      await queueMail(db, "password_reset", target.email, passwordResetMail(toLocale(row?.locale), { url }));
      log.info({ userId: target.id }, "password reset mail queued");
    },
  });

  /** better-auth's headers for a server-side call: the request's cookies and the client IP. */
  function authHeaders(meta: RequestMeta, extraCookies: readonly string[] = []): Headers {
    const headers = headersWithCookies(meta.headers, extraCookies);
    headers.set("x-vn-client-ip", meta.ip);
    headers.set("user-agent", meta.userAgent);
    headers.delete("origin");
    headers.set("origin", new URL(config.siteUrl).origin);
    return headers;
  }

  async function secretConfig() {
    return (await auth.$context).secretConfig;
  }

  async function membershipsOf(executor: Executor, userId: string) {
    return executor
      .select({ organizationId: member.organizationId, role: member.role })
      .from(member)
      .where(eq(member.userId, userId))
      .orderBy(asc(member.createdAt));
  }

  async function auditForUser(
    executor: Executor,
    userId: string,
    email: string,
    action: string,
    meta: RequestMeta | null,
    object: { type: string; id: string } | null = null,
    detail?: Record<string, unknown>,
  ): Promise<void> {
    for (const membership of await membershipsOf(executor, userId)) {
      await recordAudit(executor, {
        organizationId: membership.organizationId,
        actor: { id: userId, email },
        action,
        object: object ?? { type: "user", id: userId },
        ip: meta?.ip,
        userAgent: meta?.userAgent,
        detail,
      });
    }
  }

  async function createUserWithPassword(
    tx: Executor,
    data: { name: string; email: string; password: string; locale: MailLocale },
  ): Promise<string> {
    const email = data.email.trim().toLowerCase();
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.email, email));
    if (existing) throw new AuthError("email_taken");
    const id = randomUUID();
    const now = new Date();
    await tx.insert(user).values({
      id,
      name: data.name.trim(),
      email,
      emailVerified: true,
      createdAt: now,
      updatedAt: now,
      locale: data.locale,
      role: "user",
    });
    await tx.insert(account).values({
      id: randomUUID(),
      accountId: id,
      providerId: "credential",
      userId: id,
      password: await hashPassword(data.password),
      createdAt: now,
      updatedAt: now,
    });
    return id;
  }

  /** Signs in with email and password through better-auth and starts TOTP enrolment. */
  async function signInAndStartEnrolment(meta: RequestMeta, email: string, password: string): Promise<string[]> {
    const signIn = await auth.api.signInEmail({
      body: { email, password, rememberMe: true },
      headers: authHeaders(meta),
      asResponse: true,
    });
    if (!signIn.ok) throw new Error(`sign-in after account creation failed: ${signIn.status}`);
    const cookies = setCookiesOf(signIn);
    const enable = await auth.api.enableTwoFactor({
      body: { password },
      headers: authHeaders(meta, cookies),
      asResponse: true,
    });
    if (!enable.ok) throw new Error(`enabling two-factor failed: ${enable.status}`);
    return [...cookies, ...setCookiesOf(enable)];
  }

  async function createOrganization(tx: Executor, name: string): Promise<string> {
    const id = randomUUID();
    await tx.insert(organization).values({ id, name: name.trim(), slug: slugFor(name), createdAt: new Date() });
    return id;
  }

  async function insertInvitation(
    tx: Executor,
    input: {
      organizationId: string;
      organizationName: string;
      email: string;
      role: Role;
      locale: MailLocale;
      groupIds: readonly string[];
      inviter: { id: string; email: string; name: string } | null;
      meta: RequestMeta | null;
    },
  ): Promise<{ id: string; url: string }> {
    const token = newToken();
    const id = randomUUID();
    const email = input.email.trim().toLowerCase();
    await tx.insert(invitation).values({
      id,
      organizationId: input.organizationId,
      email,
      role: input.role,
      status: "pending",
      expiresAt: new Date(Date.now() + invitationDays * 86_400_000),
      inviterId: input.inviter?.id ?? null,
      locale: input.locale,
      tokenHash: hashSecretToken(token),
    });
    if (input.groupIds.length > 0) {
      const groups = await tx
        .select({ id: team.id })
        .from(team)
        .where(and(eq(team.organizationId, input.organizationId), inArray(team.id, [...input.groupIds])));
      if (groups.length > 0) {
        await tx.insert(invitationGroup).values(groups.map((group) => ({ invitationId: id, teamId: group.id })));
      }
    }
    const url = appUrl(`/app/invite/${token}`);
    await queueMail(
      tx,
      "invitation",
      email,
      invitationMail(input.locale, {
        organizationName: input.organizationName,
        inviterName: input.inviter?.name ?? null,
        url,
        role: input.role,
      }),
    );
    await recordAudit(tx, {
      organizationId: input.organizationId,
      actor: input.inviter ? { id: input.inviter.id, email: input.inviter.email } : null,
      action: "member.invited",
      object: { type: "invitation", id },
      ip: input.meta?.ip,
      userAgent: input.meta?.userAgent,
      detail: { email, role: input.role, locale: input.locale, groups: input.groupIds.length },
    });
    return { id, url };
  }

  async function markMfaVerified(token: string): Promise<void> {
    await db.update(session).set({ mfaVerifiedAt: new Date() }).where(eq(session.token, token));
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

  const service = {
    auth,

    /** At start: the setup link when there is no user; PLATFORM_ADMIN_EMAIL's organisation when there is none. */
    async firstRun(): Promise<{ setupUrl?: string; invitationUrl?: string }> {
      await limiter();
      const [users] = await db.select({ n: count() }).from(user);
      const [orgs] = await db.select({ n: count() }).from(organization);
      if ((orgs?.n ?? 0) === 0 && config.platformAdminEmail) {
        const pendingInvitations = await db.select({ n: count() }).from(invitation);
        if ((pendingInvitations[0]?.n ?? 0) === 0) {
          const created = await service.createOrganizationWithOwnerInvitation({
            name: config.platformOrgName,
            adminEmail: config.platformAdminEmail,
            locale: "es",
          });
          log.info(
            { email: config.platformAdminEmail },
            "platform: organisation created, owner invited (the link is in the invitation mail)",
          );
          return { invitationUrl: created.url };
        }
        return {};
      }
      if ((users?.n ?? 0) > 0) return {};
      const token = newToken();
      await db.delete(setupToken).where(isNull(setupToken.usedAt));
      await db.insert(setupToken).values({
        tokenHash: hashSecretToken(token),
        expiresAt: new Date(Date.now() + setupTokenHours * 3_600_000),
      });
      const setupUrl = appUrl(`/app/setup/${token}`);
      mkdirSync(config.dataDir, { recursive: true });
      writeFileSync(path.join(config.dataDir, "setup-url.txt"), `${setupUrl}\n`, { mode: 0o600 });
      // The link itself stays out of the log (it is a secret): the file is readable by the operator only.
      log.warn(
        { setupUrlFile: path.join(config.dataDir, "setup-url.txt") },
        "platform first run: open the link in DATA_DIR/setup-url.txt to create the organisation and its owner",
      );
      // A person at a terminal gets the link on screen (a terminal is not a log: decision 0085);
      // piped or shipped output gets only the line above.
      if (process.stdout.isTTY) process.stdout.write(`\nSet up the platform (once, within 24 h): ${setupUrl}\n\n`);
      return { setupUrl };
    },

    async createOrganizationWithOwnerInvitation(input: {
      name: string;
      adminEmail: string;
      locale: MailLocale;
    }): Promise<{ organizationId: string; url: string }> {
      return db.transaction(async (tx) => {
        const organizationId = await createOrganization(tx, input.name);
        await recordAudit(tx, {
          organizationId,
          actor: null,
          action: "organization.created",
          object: { type: "organization", id: organizationId },
          detail: { name: input.name },
        });
        const { url } = await insertInvitation(tx, {
          organizationId,
          organizationName: input.name,
          email: input.adminEmail,
          role: "owner",
          locale: input.locale,
          groupIds: [],
          inviter: null,
          meta: null,
        });
        return { organizationId, url };
      });
    },

    async setupTokenValid(token: string): Promise<boolean> {
      const [row] = await db
        .select({ tokenHash: setupToken.tokenHash })
        .from(setupToken)
        .where(
          and(
            eq(setupToken.tokenHash, hashSecretToken(token)),
            isNull(setupToken.usedAt),
            gt(setupToken.expiresAt, new Date()),
          ),
        );
      return row !== undefined;
    },

    /** The setup page: organisation and owner, signed in, TOTP enrolment started. */
    async completeSetup(
      token: string,
      input: { organizationName: string; name: string; email: string; password: string; locale: MailLocale },
      meta: RequestMeta,
    ): Promise<string[]> {
      checkPassword(input.password);
      await db.transaction(async (tx) => {
        const used = await tx
          .update(setupToken)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(setupToken.tokenHash, hashSecretToken(token)),
              isNull(setupToken.usedAt),
              gt(setupToken.expiresAt, new Date()),
            ),
          )
          .returning({ tokenHash: setupToken.tokenHash });
        if (used.length === 0) throw new AuthError("invalid_token");
        const organizationId = await createOrganization(tx, input.organizationName);
        const userId = await createUserWithPassword(tx, input);
        const memberId = randomUUID();
        await tx.insert(member).values({ id: memberId, organizationId, userId, role: "owner", createdAt: new Date() });
        const actor = { id: userId, email: input.email.trim().toLowerCase() };
        await recordAudit(tx, {
          organizationId,
          actor,
          action: "organization.created",
          object: { type: "organization", id: organizationId },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { name: input.organizationName.trim() },
        });
        await recordAudit(tx, {
          organizationId,
          actor,
          action: "member.joined",
          object: { type: "member", id: memberId },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { role: "owner", via: "setup" },
        });
      });
      try {
        const { rmSync } = await import("node:fs");
        rmSync(path.join(config.dataDir, "setup-url.txt"), { force: true });
      } catch {
        // Nothing to remove.
      }
      return signInAndStartEnrolment(meta, input.email.trim().toLowerCase(), input.password);
    },

    async findInvitation(token: string) {
      const [row] = await db
        .select({
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          locale: invitation.locale,
          organizationId: invitation.organizationId,
          organizationName: organization.name,
        })
        .from(invitation)
        .innerJoin(organization, eq(organization.id, invitation.organizationId))
        .where(
          and(
            eq(invitation.tokenHash, hashSecretToken(token)),
            eq(invitation.status, "pending"),
            gt(invitation.expiresAt, new Date()),
          ),
        );
      return row ?? null;
    },

    /** Accepting an invitation: name and password, membership and groups, then TOTP enrolment. */
    async acceptInvitation(token: string, input: { name: string; password: string }, meta: RequestMeta) {
      checkPassword(input.password);
      const accepted = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(invitation)
          .set({ status: "accepted" })
          .where(
            and(
              eq(invitation.tokenHash, hashSecretToken(token)),
              eq(invitation.status, "pending"),
              gt(invitation.expiresAt, new Date()),
            ),
          )
          .returning();
        if (!row) throw new AuthError("invalid_token");
        const locale = toLocale(row.locale);
        const userId = await createUserWithPassword(tx, { ...input, email: row.email, locale });
        const memberId = randomUUID();
        const role = isRole(row.role) ? row.role : "member";
        await tx
          .insert(member)
          .values({ id: memberId, organizationId: row.organizationId, userId, role, createdAt: new Date() });
        const groups = await tx
          .select({ teamId: invitationGroup.teamId })
          .from(invitationGroup)
          .where(eq(invitationGroup.invitationId, row.id));
        for (const group of groups) {
          await tx.insert(teamMember).values({ id: randomUUID(), teamId: group.teamId, userId, createdAt: new Date() });
        }
        await recordAudit(tx, {
          organizationId: row.organizationId,
          actor: { id: userId, email: row.email },
          action: "member.joined",
          object: { type: "member", id: memberId },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { role, via: "invitation", invitationId: row.id, groups: groups.length },
        });
        return row.email;
      });
      return signInAndStartEnrolment(meta, accepted, input.password);
    },

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

    /** The second factor at sign-in: a TOTP code (once) or a recovery code (once). */
    async verifySecondFactor(method: "totp" | "recovery", code: string, meta: RequestMeta): Promise<string[]> {
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
    },

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

    /** The signed-in session behind a request (null when none, ended, idle or too old). */
    async currentSession(headers: Headers): Promise<SessionInfo | null> {
      const token = requestSessionToken(headers.get("cookie"));
      if (!token) return null;
      const found = await auth.api.getSession({ headers }).catch(() => null);
      if (!found) return null;
      const s = found.session as typeof found.session & { mfaVerifiedAt?: Date | string | null };
      const u = found.user as typeof found.user & { locale?: string; twoFactorEnabled?: boolean | null };
      const createdAt = new Date(s.createdAt);
      const lastSeenAt = new Date(s.updatedAt);
      const now = Date.now();
      if (
        now - createdAt.getTime() > sessionAbsoluteSeconds * 1000 ||
        now - lastSeenAt.getTime() > sessionIdleSeconds * 1000
      ) {
        await db.delete(session).where(eq(session.id, s.id));
        return null;
      }
      return {
        sessionId: s.id,
        token: s.token,
        userId: u.id,
        email: u.email,
        name: u.name,
        locale: toLocale(u.locale),
        createdAt,
        lastSeenAt,
        mfaVerified: s.mfaVerifiedAt != null,
        twoFactorEnabled: u.twoFactorEnabled === true,
      };
    },

    async memberOf(current: SessionInfo): Promise<MemberInfo | null> {
      const [row] = await db
        .select({
          memberId: member.id,
          role: member.role,
          organizationId: member.organizationId,
          organizationName: organization.name,
          banned: user.banned,
        })
        .from(member)
        .innerJoin(organization, eq(organization.id, member.organizationId))
        .innerJoin(user, eq(user.id, member.userId))
        .where(eq(member.userId, current.userId))
        .orderBy(asc(member.createdAt))
        .limit(1);
      if (!row || row.banned || !isRole(row.role)) return null;
      return {
        userId: current.userId,
        email: current.email,
        name: current.name,
        organizationId: row.organizationId,
        organizationName: row.organizationName,
        memberId: row.memberId,
        role: row.role,
        locale: current.locale,
      };
    },

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

    /** Starts (or restarts) TOTP enrolment for a signed-in user who has none verified. */
    async startEnrolment(password: string, meta: RequestMeta): Promise<string[]> {
      const response = await auth.api.enableTwoFactor({
        body: { password },
        headers: authHeaders(meta),
        asResponse: true,
      });
      if (!response.ok) throw new AuthError("invalid_password");
      return setCookiesOf(response);
    },

    /** Confirms enrolment with a first code: MFA on, this session verified, the others ended. */
    async confirmEnrolment(current: SessionInfo, code: string, meta: RequestMeta): Promise<string[]> {
      const cleaned = code.replace(/\s+/g, "");
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
      await markMfaVerified(token);
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

    async signOut(current: SessionInfo | null, meta: RequestMeta): Promise<string[]> {
      const response = await auth.api.signOut({ headers: authHeaders(meta), asResponse: true });
      if (current) await auditForUser(db, current.userId, current.email, "auth.sign_out", meta);
      return setCookiesOf(response);
    },

    async listSessions(userId: string) {
      return db
        .select({
          id: session.id,
          token: session.token,
          userAgent: session.userAgent,
          ipAddress: session.ipAddress,
          createdAt: session.createdAt,
          lastSeenAt: session.updatedAt,
          mfaVerifiedAt: session.mfaVerifiedAt,
        })
        .from(session)
        .where(eq(session.userId, userId))
        .orderBy(desc(session.updatedAt));
    },

    /** Ends one of the user's own sessions (or all others). */
    async endSessions(
      current: SessionInfo,
      which: { sessionId: string } | "others",
      meta: RequestMeta,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        const ended = await tx
          .delete(session)
          .where(
            which === "others"
              ? and(eq(session.userId, current.userId), ne(session.id, current.sessionId))
              : and(eq(session.userId, current.userId), eq(session.id, which.sessionId)),
          )
          .returning({ id: session.id });
        if (ended.length > 0) {
          await auditForUser(tx, current.userId, current.email, "session.ended", meta, null, {
            sessions: ended.map((row) => row.id),
          });
        }
        return ended.length;
      });
    },

    // --- members (admins) ---

    async listMembers(organizationId: string) {
      return db
        .select({
          memberId: member.id,
          userId: user.id,
          name: user.name,
          email: user.email,
          role: member.role,
          banned: user.banned,
          createdAt: member.createdAt,
        })
        .from(member)
        .innerJoin(user, eq(user.id, member.userId))
        .where(eq(member.organizationId, organizationId))
        .orderBy(asc(user.name));
    },

    async memberById(organizationId: string, memberId: string) {
      const [row] = await db
        .select({ memberId: member.id, userId: member.userId, role: member.role, email: user.email })
        .from(member)
        .innerJoin(user, eq(user.id, member.userId))
        .where(and(eq(member.id, memberId), eq(member.organizationId, organizationId)));
      return row ?? null;
    },

    async listInvitations(organizationId: string) {
      return db
        .select({
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          status: invitation.status,
          locale: invitation.locale,
          expiresAt: invitation.expiresAt,
          createdAt: invitation.createdAt,
        })
        .from(invitation)
        .where(eq(invitation.organizationId, organizationId))
        .orderBy(desc(invitation.createdAt));
    },

    async invite(
      actor: MemberInfo,
      input: { email: string; role: Role; locale: MailLocale; groupIds: readonly string[] },
      meta: RequestMeta,
    ): Promise<{ id: string; url: string }> {
      return db.transaction((tx) =>
        insertInvitation(tx, {
          organizationId: actor.organizationId,
          organizationName: actor.organizationName,
          email: input.email,
          role: input.role,
          locale: input.locale,
          groupIds: input.groupIds,
          inviter: { id: actor.userId, email: actor.email, name: actor.name },
          meta,
        }),
      );
    },

    async revokeInvitation(actor: MemberInfo, invitationId: string, meta: RequestMeta): Promise<boolean> {
      return db.transaction(async (tx) => {
        const revoked = await tx
          .update(invitation)
          .set({ status: "canceled" })
          .where(
            and(
              eq(invitation.id, invitationId),
              eq(invitation.organizationId, actor.organizationId),
              eq(invitation.status, "pending"),
            ),
          )
          .returning({ id: invitation.id, email: invitation.email });
        if (!revoked[0]) return false;
        await recordAudit(tx, {
          organizationId: actor.organizationId,
          actor: { id: actor.userId, email: actor.email },
          action: "invitation.revoked",
          object: { type: "invitation", id: invitationId },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { email: revoked[0].email },
        });
        return true;
      });
    },

    /** A new link (the old one stops working), valid 7 days again, mailed again. */
    async resendInvitation(actor: MemberInfo, invitationId: string, meta: RequestMeta): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(invitation)
          .where(
            and(
              eq(invitation.id, invitationId),
              eq(invitation.organizationId, actor.organizationId),
              inArray(invitation.status, ["pending"]),
            ),
          );
        if (!row) return false;
        const token = newToken();
        await tx
          .update(invitation)
          .set({ tokenHash: hashSecretToken(token), expiresAt: new Date(Date.now() + invitationDays * 86_400_000) })
          .where(eq(invitation.id, row.id));
        const url = appUrl(`/app/invite/${token}`);
        await queueMail(
          tx,
          "invitation",
          row.email,
          invitationMail(toLocale(row.locale), {
            organizationName: actor.organizationName,
            inviterName: actor.name,
            url,
            role: row.role ?? "member",
          }),
        );
        await recordAudit(tx, {
          organizationId: actor.organizationId,
          actor: { id: actor.userId, email: actor.email },
          action: "invitation.resent",
          object: { type: "invitation", id: row.id },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { email: row.email },
        });
        return true;
      });
    },

    async changeRole(actor: MemberInfo, memberId: string, role: Role, meta: RequestMeta): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: member.id, role: member.role, userId: member.userId })
          .from(member)
          .where(and(eq(member.id, memberId), eq(member.organizationId, actor.organizationId)));
        if (!row) return false;
        if (row.role === "owner" && role !== "owner") {
          const [owners] = await tx
            .select({ n: count() })
            .from(member)
            .where(and(eq(member.organizationId, actor.organizationId), eq(member.role, "owner")));
          if ((owners?.n ?? 0) <= 1) throw new AuthError("forbidden");
        }
        await tx.update(member).set({ role }).where(eq(member.id, row.id));
        await recordAudit(tx, {
          organizationId: actor.organizationId,
          actor: { id: actor.userId, email: actor.email },
          action: "member.role_changed",
          object: { type: "member", id: row.id },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { from: row.role, to: role },
        });
        // Only admins and owners hold API tokens: a demotion ends the member's tokens.
        if (role === "member" && row.role !== "member") {
          await revokeTokensOf(tx, actor.organizationId, row.userId, "member.role_changed", tokenAudit(actor, meta));
        }
        return true;
      });
    },

    /** Suspends (or reinstates) a member: no sign-in, sessions ended. */
    async setSuspended(actor: MemberInfo, memberId: string, suspended: boolean, meta: RequestMeta): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: member.id, userId: member.userId })
          .from(member)
          .where(and(eq(member.id, memberId), eq(member.organizationId, actor.organizationId)));
        if (!row || row.userId === actor.userId) return false;
        await tx.update(user).set({ banned: suspended, updatedAt: new Date() }).where(eq(user.id, row.userId));
        if (suspended) await tx.delete(session).where(eq(session.userId, row.userId));
        await recordAudit(tx, {
          organizationId: actor.organizationId,
          actor: { id: actor.userId, email: actor.email },
          action: suspended ? "member.suspended" : "member.reinstated",
          object: { type: "member", id: row.id },
          ip: meta.ip,
          userAgent: meta.userAgent,
        });
        // A suspension ends the member's API tokens too (reinstating does not bring them back).
        if (suspended) {
          await revokeTokensOf(tx, actor.organizationId, row.userId, "member.suspended", tokenAudit(actor, meta));
        }
        return true;
      });
    },

    async endMemberSessions(actor: MemberInfo, memberId: string, meta: RequestMeta): Promise<number | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: member.id, userId: member.userId })
          .from(member)
          .where(and(eq(member.id, memberId), eq(member.organizationId, actor.organizationId)));
        if (!row) return null;
        const ended = await tx.delete(session).where(eq(session.userId, row.userId)).returning({ id: session.id });
        await recordAudit(tx, {
          organizationId: actor.organizationId,
          actor: { id: actor.userId, email: actor.email },
          action: "session.ended",
          object: { type: "member", id: row.id },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { sessions: ended.length },
        });
        return ended.length;
      });
    },

    // --- groups (better-auth teams) ---

    async listGroups(organizationId: string) {
      const groups = await db
        .select({ id: team.id, name: team.name, createdAt: team.createdAt })
        .from(team)
        .where(eq(team.organizationId, organizationId))
        .orderBy(asc(team.name));
      const members = groups.length
        ? await db
            .select({ teamId: teamMember.teamId, userId: user.id, name: user.name, email: user.email })
            .from(teamMember)
            .innerJoin(user, eq(user.id, teamMember.userId))
            .where(
              inArray(
                teamMember.teamId,
                groups.map((group) => group.id),
              ),
            )
        : [];
      return groups.map((group) => ({ ...group, members: members.filter((row) => row.teamId === group.id) }));
    },

    async createGroup(actor: MemberInfo, name: string, meta: RequestMeta): Promise<string> {
      return db.transaction(async (tx) => {
        const id = randomUUID();
        await tx.insert(team).values({
          id,
          name: name.trim(),
          organizationId: actor.organizationId,
          createdAt: new Date(),
          updatedAt: new Date(),
        });
        await recordAudit(tx, {
          organizationId: actor.organizationId,
          actor: { id: actor.userId, email: actor.email },
          action: "group.created",
          object: { type: "group", id },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { name: name.trim() },
        });
        return id;
      });
    },

    async renameGroup(actor: MemberInfo, groupId: string, name: string, meta: RequestMeta): Promise<boolean> {
      return db.transaction(async (tx) => {
        const renamed = await tx
          .update(team)
          .set({ name: name.trim(), updatedAt: new Date() })
          .where(and(eq(team.id, groupId), eq(team.organizationId, actor.organizationId)))
          .returning({ id: team.id });
        if (!renamed[0]) return false;
        await recordAudit(tx, {
          organizationId: actor.organizationId,
          actor: { id: actor.userId, email: actor.email },
          action: "group.renamed",
          object: { type: "group", id: groupId },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { name: name.trim() },
        });
        return true;
      });
    },

    async deleteGroup(actor: MemberInfo, groupId: string, meta: RequestMeta): Promise<boolean> {
      return db.transaction(async (tx) => {
        const deleted = await tx
          .delete(team)
          .where(and(eq(team.id, groupId), eq(team.organizationId, actor.organizationId)))
          .returning({ id: team.id, name: team.name });
        if (!deleted[0]) return false;
        await recordAudit(tx, {
          organizationId: actor.organizationId,
          actor: { id: actor.userId, email: actor.email },
          action: "group.deleted",
          object: { type: "group", id: groupId },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { name: deleted[0].name },
        });
        return true;
      });
    },

    async setGroupMember(
      actor: MemberInfo,
      groupId: string,
      memberId: string,
      present: boolean,
      meta: RequestMeta,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [group] = await tx
          .select({ id: team.id })
          .from(team)
          .where(and(eq(team.id, groupId), eq(team.organizationId, actor.organizationId)));
        const [target] = await tx
          .select({ userId: member.userId })
          .from(member)
          .where(and(eq(member.id, memberId), eq(member.organizationId, actor.organizationId)));
        if (!group || !target) return false;
        if (present) {
          const inserted = await tx
            .insert(teamMember)
            .values({
              id: randomUUID(),
              teamId: group.id,
              userId: target.userId,
              membershipKey: `${group.id}:${target.userId}`,
              createdAt: new Date(),
            })
            .onConflictDoNothing()
            .returning({ id: teamMember.id });
          if (!inserted[0]) return true;
        } else {
          const removed = await tx
            .delete(teamMember)
            .where(and(eq(teamMember.teamId, group.id), eq(teamMember.userId, target.userId)))
            .returning({ id: teamMember.id });
          if (!removed[0]) return true;
        }
        await recordAudit(tx, {
          organizationId: actor.organizationId,
          actor: { id: actor.userId, email: actor.email },
          action: present ? "group.member_added" : "group.member_removed",
          object: { type: "group", id: group.id },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { memberId },
        });
        return true;
      });
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

    async setLocale(userId: string, locale: MailLocale): Promise<void> {
      await db.update(user).set({ locale, updatedAt: new Date() }).where(eq(user.id, userId));
    },

    appendSetCookies,
  };

  /** The user waiting for a second factor (from better-auth's two-factor cookie), if any. */
  async function pendingTwoFactorUser(meta: RequestMeta): Promise<{ id: string; email: string } | null> {
    const cookie = /(?:^|;\s*)(?:__Secure-)?vn\.two_factor=([^;]*)/.exec(meta.headers.get("cookie") ?? "");
    if (!cookie?.[1]) return null;
    const identifier = decodeURIComponent(cookie[1]).split(".")[0];
    if (!identifier) return null;
    const ctx = await auth.$context;
    const verification = await ctx.internalAdapter.findVerificationValue(identifier).catch(() => null);
    if (!verification) return null;
    const [row] = await db.select({ id: user.id, email: user.email }).from(user).where(eq(user.id, verification.value));
    return row ?? null;
  }

  return service;
}

export type AuthService = ReturnType<typeof createAuthService>;
