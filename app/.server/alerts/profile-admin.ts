/**
 * What the profile pages do, each change audited in its transaction (`alert_profile.created`,
 * `.updated`, `.muted`, `.unmuted`, `.deleted`): members manage their own profiles, admins also
 * their organisation's group profiles. Others' profiles are not found.
 */
import { and, asc, eq, isNotNull, or } from "drizzle-orm";
import { recordAudit } from "../audit/record.ts";
import type { MemberInfo } from "../auth/permissions.ts";
import { can } from "../auth/permissions.ts";
import type { RequestMeta } from "../auth/service.ts";
import type { Database } from "../db/client.ts";
import { team } from "../db/schema/auth.ts";
import { alertProfiles } from "../db/schema.ts";
import { recentDocuments } from "./directory.ts";
import {
  createProfile,
  filtersOf,
  type Profile,
  type ProfileInput,
  previewMatches,
  setMuted,
  updateProfile,
} from "./profiles.ts";

export interface ProfileListItem extends Profile {
  groupName: string | null;
  /** A law follow's law (alert_profiles.law_id) and its followed blocks (none: the whole law). */
  lawId: string | null;
  lawBlocks: string[];
}

/** The member's own profiles and, for admins, the organisation's group profiles. */
export async function listProfiles(database: Database, member: MemberInfo): Promise<ProfileListItem[]> {
  const admin = can(member, "profiles.manage_group");
  const rows = await database.db
    .select({ profile: alertProfiles, groupName: team.name })
    .from(alertProfiles)
    .leftJoin(team, eq(team.id, alertProfiles.groupId))
    .where(
      and(
        eq(alertProfiles.organizationId, member.organizationId),
        admin
          ? or(eq(alertProfiles.userId, member.userId), isNotNull(alertProfiles.groupId))
          : eq(alertProfiles.userId, member.userId),
      ),
    )
    .orderBy(asc(alertProfiles.name));
  return rows.map((row) => ({
    ...(row.profile as Profile),
    groupName: row.groupName,
    lawId: row.profile.lawId,
    lawBlocks: row.profile.lawBlocks,
  }));
}

/** A profile the member may change, or undefined (unknown, another's, a group's for a non-admin). */
export async function profileFor(database: Database, member: MemberInfo, id: string): Promise<Profile | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await database.db
    .select()
    .from(alertProfiles)
    .where(and(eq(alertProfiles.id, id), eq(alertProfiles.organizationId, member.organizationId)));
  if (!row) return undefined;
  const profile = row as Profile;
  if (profile.userId === member.userId) return profile;
  if (profile.groupId && can(member, "profiles.manage_group")) return profile;
  return undefined;
}

/** The organisation's groups (for the owner choice of group profiles). */
export async function organisationGroups(database: Database, organizationId: string) {
  return database.db
    .select({ id: team.id, name: team.name })
    .from(team)
    .where(eq(team.organizationId, organizationId))
    .orderBy(asc(team.name));
}

function audit(member: MemberInfo, meta: RequestMeta, action: string, profile: Pick<Profile, "id" | "name">) {
  return {
    organizationId: member.organizationId,
    actor: { id: member.userId, email: member.email },
    action,
    object: { type: "alert_profile", id: profile.id },
    ip: meta.ip,
    userAgent: meta.userAgent,
    detail: { name: profile.name },
  };
}

export async function createAuditedProfile(
  database: Database,
  member: MemberInfo,
  input: ProfileInput,
  meta: RequestMeta,
): Promise<Profile> {
  return database.db.transaction(async (tx) => {
    const profile = await createProfile(tx, member.organizationId, input);
    await recordAudit(tx, audit(member, meta, "alert_profile.created", profile));
    return profile;
  });
}

export async function updateAuditedProfile(
  database: Database,
  member: MemberInfo,
  id: string,
  input: ProfileInput,
  meta: RequestMeta,
): Promise<Profile | undefined> {
  return database.db.transaction(async (tx) => {
    const profile = await updateProfile(tx, member.organizationId, id, input);
    if (profile) await recordAudit(tx, audit(member, meta, "alert_profile.updated", profile));
    return profile;
  });
}

export async function muteAuditedProfile(
  database: Database,
  member: MemberInfo,
  profile: Profile,
  muted: boolean,
  meta: RequestMeta,
): Promise<boolean> {
  return database.db.transaction(async (tx) => {
    const done = await setMuted(tx, member.organizationId, profile.id, muted);
    if (done)
      await recordAudit(tx, audit(member, meta, muted ? "alert_profile.muted" : "alert_profile.unmuted", profile));
    return done;
  });
}

export async function deleteAuditedProfile(
  database: Database,
  member: MemberInfo,
  profile: Profile,
  meta: RequestMeta,
): Promise<boolean> {
  return database.db.transaction(async (tx) => {
    const rows = await tx
      .delete(alertProfiles)
      .where(and(eq(alertProfiles.id, profile.id), eq(alertProfiles.organizationId, member.organizationId)))
      .returning({ id: alertProfiles.id });
    if (rows.length) await recordAudit(tx, audit(member, meta, "alert_profile.deleted", profile));
    return rows.length > 0;
  });
}

/** "Documents of the last 30 days this profile would have matched", within the organisation's reach, newest first. */
export async function previewProfile(database: Database, organizationId: string, input: ProfileInput, limit = 20) {
  const filters = filtersOf(input);
  return previewMatches(filters, await recentDocuments(database, organizationId, filters), limit);
}
