/** Groups (better-auth teams): list, create, rename, delete, membership. */
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { member, team, teamMember, user } from "../../db/schema/auth.ts";
import type { MemberInfo } from "../permissions.ts";
import type { RequestMeta } from "../types.ts";
import { type AuthContext, auditByMember } from "./context.ts";

export function groupFlow(ctx: AuthContext) {
  const { db } = ctx;
  return {
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
        await auditByMember(tx, actor, meta, "group.created", { type: "group", id }, { name: name.trim() });
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
        await auditByMember(tx, actor, meta, "group.renamed", { type: "group", id: groupId }, { name: name.trim() });
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
        await auditByMember(
          tx,
          actor,
          meta,
          "group.deleted",
          { type: "group", id: groupId },
          { name: deleted[0].name },
        );
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
        await auditByMember(
          tx,
          actor,
          meta,
          present ? "group.member_added" : "group.member_removed",
          { type: "group", id: group.id },
          { memberId },
        );
        return true;
      });
    },
  };
}
