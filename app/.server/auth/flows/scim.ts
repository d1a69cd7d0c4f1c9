/**
 * SCIM 2.0 provisioning (issue 41, RFC 7643/7644): an organisation's bearer token (shown once,
 * stored as SHA-256, revocable) lets its IdP create, update and deactivate members and groups.
 * Deactivation ends the member's sessions, API tokens and calendar feeds in the same
 * transaction, as a suspension does. Every change is audited with the token's creator as actor.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "../../audit/executor.ts";
import { recordAudit } from "../../audit/record.ts";
import { member, session, team, teamMember, user } from "../../db/schema/auth.ts";
import { calendarFeeds } from "../../db/schema/calendar.ts";
import { scimResource, scimToken } from "../../db/schema/sso.ts";
import { revokeProfileFeedsOf } from "../../feeds/tokens.ts";
import type { MemberInfo } from "../permissions.ts";
import { AuthError, hashSecretToken, type RequestMeta } from "../types.ts";
import { type AuthContext, auditByMember } from "./context.ts";
import { revokeTokensOf } from "./token-revocation.ts";

export const scimTokenPrefix = "vn_scim_";

export interface ScimCaller {
  organizationId: string;
  tokenId: string;
  actor: { id: string; email: string };
  ip: string;
  userAgent: string;
}

export interface ScimUserInput {
  userName: string;
  displayName?: string | undefined;
  active?: boolean | undefined;
  externalId?: string | undefined;
}

export interface ScimUser {
  id: string;
  userName: string;
  displayName: string;
  active: boolean;
  externalId: string | null;
}

export interface ScimGroup {
  id: string;
  displayName: string;
  members: { value: string; display: string }[];
  externalId: string | null;
}

export class ScimError extends Error {
  readonly status: number;
  readonly scimType: string | undefined;
  constructor(status: number, detail: string, scimType?: string) {
    super(detail);
    this.status = status;
    this.scimType = scimType;
  }
}

export function scimFlow(ctx: AuthContext) {
  const { db } = ctx;

  function audit(tx: Executor, caller: ScimCaller, action: string, object: { type: string; id: string }, detail = {}) {
    return recordAudit(tx, {
      organizationId: caller.organizationId,
      actor: caller.actor,
      action,
      object,
      ip: caller.ip,
      userAgent: caller.userAgent,
      detail: { via: "scim", tokenId: caller.tokenId, ...detail },
    });
  }

  async function externalIdOf(tx: Executor, organizationId: string, kind: "user" | "group", id: string) {
    const [row] = await tx
      .select({ externalId: scimResource.externalId })
      .from(scimResource)
      .where(
        and(
          eq(scimResource.organizationId, organizationId),
          eq(scimResource.kind, kind),
          eq(scimResource.resourceId, id),
        ),
      );
    return row?.externalId ?? null;
  }

  async function setExternalId(
    tx: Executor,
    organizationId: string,
    kind: "user" | "group",
    id: string,
    value?: string,
  ) {
    if (value === undefined) return;
    await tx
      .insert(scimResource)
      .values({ organizationId, kind, resourceId: id, externalId: value })
      .onConflictDoUpdate({
        target: [scimResource.organizationId, scimResource.kind, scimResource.resourceId],
        set: { externalId: value },
      });
  }

  async function readUser(tx: Executor, organizationId: string, id: string): Promise<ScimUser | null> {
    const [row] = await tx
      .select({ id: user.id, email: user.email, name: user.name, banned: user.banned })
      .from(member)
      .innerJoin(user, eq(user.id, member.userId))
      .where(and(eq(member.organizationId, organizationId), eq(member.userId, id)));
    if (!row) return null;
    return {
      id: row.id,
      userName: row.email,
      displayName: row.name,
      active: !row.banned,
      externalId: await externalIdOf(tx, organizationId, "user", row.id),
    };
  }

  /** Deactivation: no sign-in, and the member's sessions, API tokens, calendar and profile feeds end now. */
  async function deactivate(tx: Executor, caller: ScimCaller, userId: string) {
    await tx.update(user).set({ banned: true, updatedAt: new Date() }).where(eq(user.id, userId));
    const ended = await tx.delete(session).where(eq(session.userId, userId)).returning({ id: session.id });
    const tokens = await revokeTokensOf(tx, caller.organizationId, userId, "member.suspended", {
      actor: caller.actor,
      ip: caller.ip,
      userAgent: caller.userAgent,
    });
    const feeds = await tx
      .update(calendarFeeds)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(calendarFeeds.organizationId, caller.organizationId),
          or(eq(calendarFeeds.userId, userId), eq(calendarFeeds.createdBy, userId)),
          isNull(calendarFeeds.revokedAt),
        ),
      )
      .returning({ id: calendarFeeds.id });
    const profileFeeds = await revokeProfileFeedsOf(tx, caller.organizationId, userId);
    await audit(
      tx,
      caller,
      "scim.user_deactivated",
      { type: "user", id: userId },
      {
        sessions: ended.length,
        apiTokens: tokens,
        calendarFeeds: feeds.length,
        profileFeeds,
      },
    );
  }

  async function groupOf(tx: Executor, organizationId: string, id: string): Promise<ScimGroup | null> {
    const [row] = await tx
      .select()
      .from(team)
      .where(and(eq(team.id, id), eq(team.organizationId, organizationId)));
    if (!row) return null;
    const members = await tx
      .select({ value: user.id, display: user.email })
      .from(teamMember)
      .innerJoin(user, eq(user.id, teamMember.userId))
      .where(eq(teamMember.teamId, id))
      .orderBy(asc(user.email));
    return {
      id: row.id,
      displayName: row.name,
      members,
      externalId: await externalIdOf(tx, organizationId, "group", id),
    };
  }

  async function setGroupMembers(
    tx: Executor,
    organizationId: string,
    teamId: string,
    userIds: string[],
    mode: "add" | "remove" | "replace",
  ) {
    const own =
      userIds.length === 0
        ? []
        : (
            await tx
              .select({ userId: member.userId })
              .from(member)
              .where(and(eq(member.organizationId, organizationId), inArray(member.userId, userIds)))
          ).map((row) => row.userId);
    if (mode === "replace") await tx.delete(teamMember).where(eq(teamMember.teamId, teamId));
    if (mode === "remove") {
      if (own.length > 0) {
        await tx.delete(teamMember).where(and(eq(teamMember.teamId, teamId), inArray(teamMember.userId, own)));
      }
      return;
    }
    for (const userId of own) {
      await tx
        .insert(teamMember)
        .values({ id: randomUUID(), teamId, userId, membershipKey: `${teamId}:${userId}`, createdAt: new Date() })
        .onConflictDoNothing();
    }
  }

  return {
    /** A new SCIM token for the admin's organisation: the value is shown once. */
    async createScimToken(actor: MemberInfo, meta: RequestMeta): Promise<{ id: string; token: string }> {
      if (actor.role !== "owner" && actor.role !== "admin") throw new AuthError("forbidden");
      const id = randomUUID();
      const token = `${scimTokenPrefix}${randomBytes(32).toString("base64url")}`;
      await db.transaction(async (tx) => {
        await tx.insert(scimToken).values({
          id,
          organizationId: actor.organizationId,
          tokenHash: hashSecretToken(token),
          createdBy: actor.userId,
        });
        await auditByMember(tx, actor, meta, "scim.token_created", { type: "scim_token", id });
      });
      return { id, token };
    },

    async revokeScimToken(actor: MemberInfo, id: string, meta: RequestMeta): Promise<boolean> {
      if (actor.role !== "owner" && actor.role !== "admin") throw new AuthError("forbidden");
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(scimToken)
          .set({ revokedAt: new Date() })
          .where(
            and(eq(scimToken.id, id), eq(scimToken.organizationId, actor.organizationId), isNull(scimToken.revokedAt)),
          )
          .returning({ id: scimToken.id });
        if (rows[0]) await auditByMember(tx, actor, meta, "scim.token_revoked", { type: "scim_token", id });
        return rows.length > 0;
      });
    },

    async listScimTokens(organizationId: string) {
      return db
        .select({ id: scimToken.id, createdAt: scimToken.createdAt, revokedAt: scimToken.revokedAt })
        .from(scimToken)
        .where(eq(scimToken.organizationId, organizationId))
        .orderBy(asc(scimToken.createdAt));
    },

    /** The caller behind a bearer token (null: unknown or revoked). */
    async scimCaller(bearer: string, meta: RequestMeta): Promise<ScimCaller | null> {
      if (!bearer.startsWith(scimTokenPrefix)) return null;
      const [row] = await db
        .select({
          id: scimToken.id,
          organizationId: scimToken.organizationId,
          createdBy: scimToken.createdBy,
          email: user.email,
        })
        .from(scimToken)
        .leftJoin(user, eq(user.id, scimToken.createdBy))
        .where(and(eq(scimToken.tokenHash, hashSecretToken(bearer)), isNull(scimToken.revokedAt)));
      if (!row) return null;
      return {
        organizationId: row.organizationId,
        tokenId: row.id,
        actor: { id: row.createdBy ?? "scim", email: row.email ?? "scim" },
        ip: meta.ip,
        userAgent: meta.userAgent,
      };
    },

    async scimListUsers(caller: ScimCaller, userName?: string): Promise<ScimUser[]> {
      const rows = await db
        .select({ id: user.id })
        .from(member)
        .innerJoin(user, eq(user.id, member.userId))
        .where(
          and(
            eq(member.organizationId, caller.organizationId),
            userName === undefined ? undefined : eq(user.email, userName.trim().toLowerCase()),
          ),
        )
        .orderBy(asc(user.email));
      const users: ScimUser[] = [];
      for (const row of rows) {
        const found = await readUser(db, caller.organizationId, row.id);
        if (found) users.push(found);
      }
      return users;
    },

    scimGetUser: (caller: ScimCaller, id: string) => readUser(db, caller.organizationId, id),

    async scimCreateUser(caller: ScimCaller, input: ScimUserInput): Promise<ScimUser> {
      const email = input.userName.trim().toLowerCase();
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
        throw new ScimError(400, "userName must be an email address", "invalidValue");
      return db.transaction(async (tx) => {
        const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.email, email));
        if (existing) throw new ScimError(409, "a user with this userName exists", "uniqueness");
        const id = randomUUID();
        const now = new Date();
        await tx.insert(user).values({
          id,
          name: input.displayName?.trim() || email.split("@")[0]!,
          email,
          emailVerified: true,
          createdAt: now,
          updatedAt: now,
          locale: "es",
          role: "user",
          banned: input.active === false,
        });
        await tx.insert(member).values({
          id: randomUUID(),
          organizationId: caller.organizationId,
          userId: id,
          role: "member",
          createdAt: now,
        });
        await setExternalId(tx, caller.organizationId, "user", id, input.externalId);
        await audit(tx, caller, "scim.user_created", { type: "user", id }, { email });
        return (await readUser(tx, caller.organizationId, id))!;
      });
    },

    /** PUT and PATCH: name, externalId, active (false: deactivation with all it ends). */
    async scimUpdateUser(caller: ScimCaller, id: string, input: Partial<ScimUserInput>): Promise<ScimUser> {
      return db.transaction(async (tx) => {
        const before = await readUser(tx, caller.organizationId, id);
        if (!before) throw new ScimError(404, "no such user");
        if (input.displayName?.trim() && input.displayName.trim() !== before.displayName) {
          await tx.update(user).set({ name: input.displayName.trim(), updatedAt: new Date() }).where(eq(user.id, id));
          await audit(tx, caller, "scim.user_updated", { type: "user", id }, { name: input.displayName.trim() });
        }
        await setExternalId(tx, caller.organizationId, "user", id, input.externalId);
        if (input.active === false && before.active) await deactivate(tx, caller, id);
        if (input.active === true && !before.active) {
          await tx.update(user).set({ banned: false, updatedAt: new Date() }).where(eq(user.id, id));
          await audit(tx, caller, "scim.user_reactivated", { type: "user", id });
        }
        return (await readUser(tx, caller.organizationId, id))!;
      });
    },

    /** DELETE: deactivated, then out of the organisation. */
    async scimDeleteUser(caller: ScimCaller, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const before = await readUser(tx, caller.organizationId, id);
        if (!before) throw new ScimError(404, "no such user");
        if (before.active) await deactivate(tx, caller, id);
        await tx.delete(member).where(and(eq(member.organizationId, caller.organizationId), eq(member.userId, id)));
        await audit(tx, caller, "scim.user_removed", { type: "user", id });
      });
    },

    async scimListGroups(caller: ScimCaller, displayName?: string): Promise<ScimGroup[]> {
      const rows = await db
        .select({ id: team.id })
        .from(team)
        .where(
          and(
            eq(team.organizationId, caller.organizationId),
            displayName === undefined ? undefined : eq(team.name, displayName),
          ),
        )
        .orderBy(asc(team.name));
      const groups: ScimGroup[] = [];
      for (const row of rows) {
        const found = await groupOf(db, caller.organizationId, row.id);
        if (found) groups.push(found);
      }
      return groups;
    },

    scimGetGroup: (caller: ScimCaller, id: string) => groupOf(db, caller.organizationId, id),

    async scimCreateGroup(caller: ScimCaller, input: { displayName: string; members: string[]; externalId?: string }) {
      const name = input.displayName.trim().slice(0, 120);
      if (!name) throw new ScimError(400, "displayName is required", "invalidValue");
      return db.transaction(async (tx) => {
        const id = randomUUID();
        await tx
          .insert(team)
          .values({ id, name, organizationId: caller.organizationId, createdAt: new Date(), updatedAt: new Date() });
        await setGroupMembers(tx, caller.organizationId, id, input.members, "add");
        await setExternalId(tx, caller.organizationId, "group", id, input.externalId);
        await audit(tx, caller, "scim.group_created", { type: "group", id }, { name, members: input.members.length });
        return (await groupOf(tx, caller.organizationId, id))!;
      });
    },

    /** PUT (replace) and PATCH (add, remove, replace members; rename). */
    async scimUpdateGroup(
      caller: ScimCaller,
      id: string,
      change: {
        displayName?: string | undefined;
        members?: { mode: "add" | "remove" | "replace"; ids: string[] }[];
        externalId?: string | undefined;
      },
    ) {
      return db.transaction(async (tx) => {
        const before = await groupOf(tx, caller.organizationId, id);
        if (!before) throw new ScimError(404, "no such group");
        const name = change.displayName?.trim().slice(0, 120);
        if (name && name !== before.displayName)
          await tx.update(team).set({ name, updatedAt: new Date() }).where(eq(team.id, id));
        for (const step of change.members ?? [])
          await setGroupMembers(tx, caller.organizationId, id, step.ids, step.mode);
        await setExternalId(tx, caller.organizationId, "group", id, change.externalId);
        const after = (await groupOf(tx, caller.organizationId, id))!;
        await audit(
          tx,
          caller,
          "scim.group_updated",
          { type: "group", id },
          {
            name: after.displayName,
            members: after.members.map((m) => m.value),
          },
        );
        return after;
      });
    },

    async scimDeleteGroup(caller: ScimCaller, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const rows = await tx
          .delete(team)
          .where(and(eq(team.id, id), eq(team.organizationId, caller.organizationId)))
          .returning({ id: team.id });
        if (!rows[0]) throw new ScimError(404, "no such group");
        await audit(tx, caller, "scim.group_deleted", { type: "group", id });
      });
    },
  };
}
