/**
 * What every auth flow shares: configuration, the database, better-auth itself, the per-IP limiter,
 * server-side headers for better-auth calls, and the audit of an event on each of a user's organisations.
 */
import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Executor } from "../../audit/executor.ts";
import { recordAudit } from "../../audit/record.ts";
import type { Config } from "../../config.ts";
import type { Database, Db } from "../../db/client.ts";
import { member, user } from "../../db/schema/auth.ts";
import type { Logger } from "../../logger.ts";
import { headersWithCookies } from "../cookies.ts";
import { type AccountLock, createIpLimiter, type IpLimiter } from "../limits.ts";
import { type MailLocale, passwordResetMail, queueMail } from "../mails.ts";
import { passwordProblem } from "../passwords.ts";
import type { MemberInfo } from "../permissions.ts";
import { type Auth, createAuth } from "../server.ts";
import { AuthError, type RequestMeta } from "../types.ts";
import type { TokenAuditContext } from "./token-revocation.ts";

export interface AuthDeps {
  config: Config;
  database: Database;
  log: Logger;
}

/** An address refused for one account is told to slow down; a locked account is told so. */
export function lockCode(lock: AccountLock): "locked" | "rate_limited" {
  return lock.scope === "address" ? "rate_limited" : "locked";
}

/** The admin who suspends or demotes a member, as the actor of the token revocations that follow. */
export function tokenAudit(actor: MemberInfo, meta: RequestMeta): TokenAuditContext {
  return { actor: { id: actor.userId, email: actor.email }, ip: meta.ip, userAgent: meta.userAgent };
}

export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

export function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem === "too_short") throw new AuthError("password_too_short");
  if (problem === "too_long") throw new AuthError("password_too_long");
  if (problem === "common") throw new AuthError("password_common");
}

export function toLocale(value: unknown): MailLocale {
  return value === "en" ? "en" : "es";
}

/** An admin's change in their organisation, audited in the caller's transaction. */
export function auditByMember(
  tx: Executor,
  actor: MemberInfo,
  meta: RequestMeta,
  action: string,
  object: { type: string; id: string },
  detail?: Record<string, unknown>,
): Promise<unknown> {
  return recordAudit(tx, {
    organizationId: actor.organizationId,
    actor: { id: actor.userId, email: actor.email },
    action,
    object,
    ip: meta.ip,
    userAgent: meta.userAgent,
    detail,
  });
}

export function createAuthContext(deps: AuthDeps) {
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

  return {
    config,
    db,
    log,
    auth,
    appUrl,
    limiter,
    authHeaders,
    secretConfig,
    membershipsOf,
    auditForUser,
    pendingTwoFactorUser,
  };
}

export type AuthContext = ReturnType<typeof createAuthContext>;
