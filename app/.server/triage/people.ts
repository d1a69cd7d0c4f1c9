/** Who can be assigned triage items and obligations: the organisation's members and groups (better-auth teams). */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "../audit/executor.ts";
import { member, team, teamMember, user } from "../db/schema/auth.ts";

export interface Person {
  id: string;
  name: string;
  email: string;
}
export interface Group {
  id: string;
  name: string;
}

export async function organisationMembers(db: Executor, organizationId: string): Promise<Person[]> {
  const rows = await db
    .select({ id: user.id, name: user.name, email: user.email })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(eq(member.organizationId, organizationId))
    .orderBy(asc(user.name), asc(user.email));
  return rows.map((row) => ({ id: row.id, name: row.name || row.email, email: row.email }));
}

export async function organisationGroups(db: Executor, organizationId: string): Promise<Group[]> {
  return db
    .select({ id: team.id, name: team.name })
    .from(team)
    .where(eq(team.organizationId, organizationId))
    .orderBy(asc(team.name));
}

/** The ids of the organisation's groups `userId` belongs to. */
export async function groupsOf(db: Executor, organizationId: string, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: team.id })
    .from(teamMember)
    .innerJoin(team, eq(team.id, teamMember.teamId))
    .where(and(eq(teamMember.userId, userId), eq(team.organizationId, organizationId)));
  return rows.map((row) => row.id);
}

/** Whether the user is a member / the group is a group of the organisation (assignments stay inside it). */
export async function isMemberOf(db: Executor, organizationId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: member.id })
    .from(member)
    .where(and(eq(member.organizationId, organizationId), eq(member.userId, userId)));
  return Boolean(row);
}
export async function isGroupOf(db: Executor, organizationId: string, groupId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: team.id })
    .from(team)
    .where(and(eq(team.organizationId, organizationId), eq(team.id, groupId)));
  return Boolean(row);
}

/** Display names of users and groups by id. */
export async function namesOf(
  db: Executor,
  ids: { users: string[]; groups: string[] },
): Promise<{ users: Map<string, Person>; groups: Map<string, string> }> {
  const [users, groups] = await Promise.all([
    ids.users.length
      ? db.select({ id: user.id, name: user.name, email: user.email }).from(user).where(inArray(user.id, ids.users))
      : Promise.resolve([]),
    ids.groups.length
      ? db.select({ id: team.id, name: team.name }).from(team).where(inArray(team.id, ids.groups))
      : Promise.resolve([]),
  ]);
  return {
    users: new Map(users.map((row) => [row.id, { id: row.id, name: row.name || row.email, email: row.email }])),
    groups: new Map(groups.map((row) => [row.id, row.name])),
  };
}
