/** Members (admins): list, roles, suspension and ending a member's sessions; tokens follow the role. */
import { and, asc, count, eq } from "drizzle-orm";
import { member, session, user } from "../../db/schema/auth.ts";
import type { MemberInfo, Role } from "../permissions.ts";
import { AuthError, type RequestMeta } from "../types.ts";
import { type AuthContext, auditByMember, tokenAudit } from "./context.ts";
import { revokeTokensOf } from "./token-revocation.ts";

export function memberFlow(ctx: AuthContext) {
  const { db } = ctx;
  return {
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
        await auditByMember(
          tx,
          actor,
          meta,
          "member.role_changed",
          { type: "member", id: row.id },
          { from: row.role, to: role },
        );
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
        await auditByMember(tx, actor, meta, suspended ? "member.suspended" : "member.reinstated", {
          type: "member",
          id: row.id,
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
        await auditByMember(
          tx,
          actor,
          meta,
          "session.ended",
          { type: "member", id: row.id },
          { sessions: ended.length },
        );
        return ended.length;
      });
    },
  };
}
