/**
 * What an SSO sign-in does to accounts: the IdP identity found (or created just in time, or a
 * link offered to the existing account's owner), the IdP groups mapped onto the member's role and
 * groups at every sign-in, and a session started with or without a verified second factor.
 */
import { createHmac, randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { defaultLocale, isLocale, type Locale } from "../../../i18n/locales.ts";
import type { Executor } from "../../audit/executor.ts";
import { recordAudit } from "../../audit/record.ts";
import { account, member, session, team, teamMember, user } from "../../db/schema/auth.ts";
import { ssoDomain, ssoGroupMapping, ssoIdentity, ssoPendingLink, type ssoProvider } from "../../db/schema/sso.ts";
import { type IdpIdentity, SsoRefused } from "../../sso/identity.ts";
import { isRole, type Role } from "../permissions.ts";
import { hashSecretToken, type RequestMeta } from "../types.ts";
import { type AuthContext, newToken } from "./context.ts";

export type ProviderRow = typeof ssoProvider.$inferSelect;

const roleRank: Record<Role, number> = { member: 0, admin: 1, owner: 2 };
export const pendingLinkMinutes = 30;

/** The audit event of an SSO step, with the IdP and the subject. */
export function auditSso(
  tx: Executor,
  provider: ProviderRow,
  actor: { id: string; email: string } | null,
  action: string,
  meta: RequestMeta | null,
  detail: Record<string, unknown>,
) {
  return recordAudit(tx, {
    organizationId: provider.organizationId,
    actor,
    action,
    object: { type: "sso_provider", id: provider.id },
    ip: meta?.ip,
    userAgent: meta?.userAgent,
    detail: { idp: provider.name, protocol: provider.kind, ...detail },
  });
}

export function ssoAccounts(ctx: AuthContext) {
  const { db, auth } = ctx;

  /** The role and groups the IdP's groups give, by the provider's table (role: the highest). */
  async function mapped(tx: Executor, provider: ProviderRow, groups: string[]) {
    const rows = await tx.select().from(ssoGroupMapping).where(eq(ssoGroupMapping.providerId, provider.id));
    const held = new Set(groups);
    let role: Role = isRole(provider.defaultRole) && provider.defaultRole !== "owner" ? provider.defaultRole : "member";
    const teams = new Set<string>();
    for (const row of rows) {
      if (!held.has(row.idpGroup)) continue;
      if (row.role && isRole(row.role) && row.role !== "owner" && roleRank[row.role] > roleRank[role]) role = row.role;
      if (row.teamId) teams.add(row.teamId);
    }
    const mappedTeams = rows.flatMap((row) => (row.teamId ? [row.teamId] : []));
    return { role, teams, mappedTeams };
  }

  /** Keeps the member in step with the IdP: role (an owner stays owner) and the mapped groups. */
  async function applyMapping(tx: Executor, provider: ProviderRow, userId: string, groups: string[]) {
    const target = await mapped(tx, provider, groups);
    const [row] = await tx
      .select({ id: member.id, role: member.role })
      .from(member)
      .where(and(eq(member.organizationId, provider.organizationId), eq(member.userId, userId)));
    let role: Role = target.role;
    if (!row) {
      await tx.insert(member).values({
        id: randomUUID(),
        organizationId: provider.organizationId,
        userId,
        role,
        createdAt: new Date(),
      });
    } else if (row.role === "owner") {
      role = "owner";
    } else if (row.role !== role) {
      await tx.update(member).set({ role }).where(eq(member.id, row.id));
    }
    // Only the groups named in the table follow the IdP; others are the admins' to set.
    const orgTeams =
      target.mappedTeams.length === 0
        ? []
        : await tx
            .select({ id: team.id })
            .from(team)
            .where(and(inArray(team.id, target.mappedTeams), eq(team.organizationId, provider.organizationId)));
    for (const { id } of orgTeams) {
      if (target.teams.has(id)) {
        await tx
          .insert(teamMember)
          .values({ id: randomUUID(), teamId: id, userId, membershipKey: `${id}:${userId}`, createdAt: new Date() })
          .onConflictDoNothing();
      } else {
        await tx.delete(teamMember).where(and(eq(teamMember.teamId, id), eq(teamMember.userId, userId)));
      }
    }
    return { role, groups: [...target.teams].sort(), previousRole: row?.role ?? null };
  }

  /** Whether the provider's organisation has proved the email's domain. */
  async function domainClaimed(tx: Executor, provider: ProviderRow, email: string): Promise<boolean> {
    const domain = email.split("@")[1] ?? "";
    const [row] = await tx.select().from(ssoDomain).where(eq(ssoDomain.domain, domain));
    return !!row?.verifiedAt && row.organizationId === provider.organizationId;
  }

  /**
   * The account behind an identity: linked before, created now (JIT), or a link waiting for the
   * existing account's owner. Never an account of another organisation.
   */
  /**
   * A JIT member's language (decision 0163): the IdP's (OIDC `locale`, SAML preferredLanguage), else
   * the browser's at the sign-in start, else the organisation's (its first owner's), else Spanish.
   */
  async function newMemberLocale(
    tx: Executor,
    provider: ProviderRow,
    identity: IdpIdentity,
    browserLocale: string | null,
  ): Promise<Locale> {
    if (identity.locale) return identity.locale;
    if (isLocale(browserLocale)) return browserLocale;
    const [owner] = await tx
      .select({ locale: user.locale })
      .from(member)
      .innerJoin(user, eq(user.id, member.userId))
      .where(and(eq(member.organizationId, provider.organizationId), eq(member.role, "owner")))
      .orderBy(asc(member.createdAt))
      .limit(1);
    return isLocale(owner?.locale) ? owner.locale : defaultLocale;
  }

  async function resolve(
    tx: Executor,
    provider: ProviderRow,
    identity: IdpIdentity,
    browserLocale: string | null = null,
  ): Promise<
    | { kind: "user"; userId: string; created: boolean; provisioned?: boolean; locale?: Locale }
    | { kind: "link"; userId: string; token: string }
  > {
    const [linked] = await tx
      .select({ userId: ssoIdentity.userId })
      .from(ssoIdentity)
      .where(and(eq(ssoIdentity.providerId, provider.id), eq(ssoIdentity.subject, identity.subject)));
    const memberships = async (userId: string) =>
      tx.select({ organizationId: member.organizationId }).from(member).where(eq(member.userId, userId));
    if (linked) {
      const orgs = await memberships(linked.userId);
      if (orgs.some((row) => row.organizationId !== provider.organizationId)) {
        throw new SsoRefused("account belongs to another organisation");
      }
      return { kind: "user", userId: linked.userId, created: false };
    }
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.email, identity.email));
    if (existing) {
      const orgs = await memberships(existing.id);
      if (orgs.length === 0 || orgs.some((row) => row.organizationId !== provider.organizationId)) {
        throw new SsoRefused("email of an account outside the organisation");
      }
      // An account the organisation provisioned (SCIM: no password of its own) is the IdP's already.
      const [credential] = await tx
        .select({ id: account.id })
        .from(account)
        .where(and(eq(account.userId, existing.id), eq(account.providerId, "credential")));
      if (!credential) {
        await tx
          .insert(ssoIdentity)
          .values({ providerId: provider.id, subject: identity.subject, userId: existing.id });
        return { kind: "user", userId: existing.id, created: false, provisioned: true };
      }
      const token = newToken();
      await tx.insert(ssoPendingLink).values({
        tokenHash: hashSecretToken(token),
        providerId: provider.id,
        subject: identity.subject,
        userId: existing.id,
        groups: JSON.stringify(identity.groups),
        expiresAt: new Date(Date.now() + pendingLinkMinutes * 60_000),
      });
      return { kind: "link", userId: existing.id, token };
    }
    if (!provider.jit) throw new SsoRefused("no account and JIT creation is off");
    if (!(await domainClaimed(tx, provider, identity.email))) {
      throw new SsoRefused("email domain not claimed by the organisation");
    }
    const id = randomUUID();
    const now = new Date();
    const locale = await newMemberLocale(tx, provider, identity, browserLocale);
    await tx.insert(user).values({
      id,
      name: identity.name,
      email: identity.email,
      emailVerified: true,
      createdAt: now,
      updatedAt: now,
      locale,
      role: "user",
    });
    await tx.insert(ssoIdentity).values({ providerId: provider.id, subject: identity.subject, userId: id });
    return { kind: "user", userId: id, created: true, locale };
  }

  /** A session for the user, its cookie signed as better-auth signs it; verified when the IdP's MFA is trusted. */
  /** A session signed in through `providerId` (marked so: "SSO required" ends the others, not these). */
  async function startSession(
    userId: string,
    providerId: string,
    mfaVerified: boolean,
    meta: RequestMeta,
  ): Promise<string[]> {
    const context = await auth.$context;
    const created = await context.internalAdapter.createSession(userId, false, {
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
    });
    await db
      .update(session)
      .set({ ssoProviderId: providerId, ...(mfaVerified ? { mfaVerifiedAt: new Date() } : {}) })
      .where(eq(session.token, created.token));
    const cookie = context.authCookies.sessionToken;
    const signature = createHmac("sha256", context.secret).update(created.token).digest("base64");
    const attributes = cookie.attributes;
    const parts = [
      `${cookie.name}=${encodeURIComponent(`${created.token}.${signature}`)}`,
      `Max-Age=${context.sessionConfig.expiresIn}`,
      `Path=${attributes.path ?? "/"}`,
      "HttpOnly",
      `SameSite=${attributes.sameSite === "strict" ? "Strict" : "Lax"}`,
    ];
    if (attributes.secure) parts.push("Secure");
    return [parts.join("; ")];
  }

  return { applyMapping, resolve, startSession, domainClaimed };
}
