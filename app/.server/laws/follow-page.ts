/**
 * The follow forms of the law pages, a search result and a document page: a member follows a
 * whole law, a title or chapter, or chosen articles, for themselves or (admins) for a group. A
 * follow is an alert profile with a law scope (lawsrc's follows.ts); creating and deleting one is
 * audited in the same transaction (`alert_profile.created`, `alert_profile.deleted`). EU acts
 * (CELEX numbers) are registered with source 'eu' and read from Cellar at once.
 */
import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Locale } from "../../i18n/locales.ts";
import { listProfiles, organisationGroups } from "../alerts/profile-admin.ts";
import { recordAudit } from "../audit/record.ts";
import { can, type MemberInfo } from "../auth/permissions.ts";
import type { RequestMeta } from "../auth/service.ts";
import type { Database } from "../db/client.ts";
import { alertProfiles, lawBlocks, laws } from "../db/schema.ts";
import { defaultMaxFollowsPerOrganization, type Follow, followRefusal, resolveFollowedLaw } from "./follows.ts";
import { organisationFollowsLaw } from "./reach.ts";
import { localTitles } from "./titles.ts";

export type FollowFailure =
  | "badLawId"
  | "lawNotFound"
  | "unknownLaw"
  | "tooManyFollows"
  | "noBlocks"
  | "badBlocks"
  | "badGroup";

export interface FollowFormResult {
  ok: boolean;
  failure?: FollowFailure;
  lawId?: string;
  /** What is now followed, for the confirmation: "whole" or the block titles. */
  what?: { whole: boolean; titles: string[] };
  unfollowed?: boolean;
  /** An existing follow of the same law for the same audience was changed, not a second one made. */
  updated?: boolean;
}

/** A typed BOE id, BOE ELI or CELEX number as a law id (BOE-A-…, 32016R0679). */
export async function lawIdFromInput(
  database: Database,
  typed: string,
  organizationId: string,
): Promise<{ lawId: string; source: "boe" | "eu" } | { failure: FollowFailure }> {
  const resolved = await resolveFollowedLaw(database, typed, organizationId);
  return "problem" in resolved ? { failure: resolved.problem } : resolved;
}

/**
 * Creates a follow from form fields: `law` (typed id) or the page's law, `scope` (`law` or
 * `blocks`), `block` (repeated), `audience` (`me` or `group:<id>`), `mail` (`immediate`|`off`).
 */
export async function followFromForm(
  database: Database,
  member: MemberInfo,
  meta: RequestMeta,
  form: FormData,
  pageLawId?: string,
  maxFollows: number = defaultMaxFollowsPerOrganization,
): Promise<FollowFormResult> {
  const typed = pageLawId ?? String(form.get("law") ?? "");
  const resolved = await lawIdFromInput(database, typed, member.organizationId);
  if ("failure" in resolved) return { ok: false, failure: resolved.failure };
  const { lawId, source } = resolved;
  const scope = String(form.get("scope") ?? "law");
  const blockIds = scope === "blocks" ? [...new Set(form.getAll("block").map(String).filter(Boolean))] : [];
  if (scope === "blocks" && blockIds.length === 0) return { ok: false, failure: "noBlocks", lawId };
  const audience = String(form.get("audience") ?? "me");
  let groupId: string | null = null;
  if (audience.startsWith("group:")) {
    const groups = can(member, "profiles.manage_group")
      ? await organisationGroups(database, member.organizationId)
      : [];
    const group = groups.find((g) => g.id === audience.slice(6));
    if (!group) return { ok: false, failure: "badGroup", lawId };
    groupId = group.id;
  }
  const mail = form.get("mail");
  const emailMode = mail === "off" || mail === "digest" ? mail : "immediate";
  const titles: string[] = [];
  // Parts are chosen on the page of a law the organisation follows; for another, whether its parts
  // resolved would tell that some other organisation follows it.
  if (blockIds.length > 0 && !(await organisationFollowsLaw(database, member.organizationId, lawId))) {
    return { ok: false, failure: "badBlocks", lawId };
  }
  if (blockIds.length > 0) {
    const known = await database.db
      .select({ blockId: lawBlocks.blockId, title: lawBlocks.title })
      .from(lawBlocks)
      .where(eq(lawBlocks.lawId, lawId));
    const byId = new Map(known.map((b) => [b.blockId, b.title]));
    if (blockIds.some((id) => !byId.has(id))) return { ok: false, failure: "badBlocks", lawId };
    for (const id of blockIds) titles.push(byId.get(id) || id);
  }
  const outcome = await database.db.transaction(async (tx): Promise<FollowFailure | "created" | "updated"> => {
    await tx.insert(laws).values({ id: lawId, source, title: lawId }).onConflictDoNothing();
    const [law] = await tx.select({ title: laws.title }).from(laws).where(eq(laws.id, lawId));
    const name = (titles.length > 0 ? `${law?.title ?? lawId}: ${titles.join(", ")}` : (law?.title ?? lawId)).slice(
      0,
      200,
    );
    // One follow of a law per audience (the member, or a group): following it again changes what
    // that follow covers (issue 40: no second follow beside the first). The organisation's follows
    // lock (followRefusal takes it too) keeps two concurrent posts from making two.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`follows:${member.organizationId}`}))`);
    const [existing] = await tx
      .select({ id: alertProfiles.id })
      .from(alertProfiles)
      .where(
        and(
          eq(alertProfiles.organizationId, member.organizationId),
          eq(alertProfiles.lawId, lawId),
          groupId
            ? eq(alertProfiles.groupId, groupId)
            : and(eq(alertProfiles.userId, member.userId), isNull(alertProfiles.groupId)),
        ),
      )
      .limit(1);
    if (existing) {
      await tx
        .update(alertProfiles)
        .set({ name, emailMode, lawBlocks: blockIds, updatedAt: new Date() })
        .where(eq(alertProfiles.id, existing.id));
      await recordAudit(tx, {
        organizationId: member.organizationId,
        actor: { id: member.userId, email: member.email },
        action: "alert_profile.updated",
        object: { type: "alert_profile", id: existing.id },
        ip: meta.ip,
        userAgent: meta.userAgent,
        detail: { name, lawId, blocks: blockIds, groupId },
      });
      return "updated";
    }
    const refusal = await followRefusal(tx, member.organizationId, lawId, maxFollows);
    if (refusal) return refusal;
    const id = randomUUID();
    await tx.insert(alertProfiles).values({
      id,
      organizationId: member.organizationId,
      userId: groupId ? null : member.userId,
      groupId,
      name,
      emailMode,
      language: member.locale,
      lawId,
      lawBlocks: blockIds,
    });
    await recordAudit(tx, {
      organizationId: member.organizationId,
      actor: { id: member.userId, email: member.email },
      action: "alert_profile.created",
      object: { type: "alert_profile", id },
      ip: meta.ip,
      userAgent: meta.userAgent,
      detail: { name, lawId, blocks: blockIds, groupId },
    });
    return "created";
  });
  if (outcome !== "created" && outcome !== "updated") return { ok: false, failure: outcome, lawId };
  return {
    ok: true,
    lawId,
    what: { whole: blockIds.length === 0, titles },
    ...(outcome === "updated" ? { updated: true } : {}),
  };
}

/** Deletes one of the member's follows (or, for admins, a group's), audited. */
export async function unfollowFromForm(
  database: Database,
  member: MemberInfo,
  meta: RequestMeta,
  id: string,
): Promise<FollowFormResult> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return { ok: false };
  return database.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(alertProfiles)
      .where(
        and(
          eq(alertProfiles.id, id),
          eq(alertProfiles.organizationId, member.organizationId),
          isNotNull(alertProfiles.lawId),
        ),
      );
    const mine = row && (row.userId === member.userId || (row.groupId && can(member, "profiles.manage_group")));
    if (!row || !mine) return { ok: false };
    await tx.delete(alertProfiles).where(eq(alertProfiles.id, id));
    await recordAudit(tx, {
      organizationId: member.organizationId,
      actor: { id: member.userId, email: member.email },
      action: "alert_profile.deleted",
      object: { type: "alert_profile", id },
      ip: meta.ip,
      userAgent: meta.userAgent,
      detail: { name: row.name, lawId: row.lawId },
    });
    return { ok: true, unfollowed: true, lawId: row.lawId ?? undefined, what: { whole: true, titles: [row.name] } };
  });
}

export interface FollowRow {
  id: string;
  lawId: string;
  lawTitle: string;
  blockIds: string[];
  groupId: string | null;
  groupName: string | null;
  emailMode: string;
  updatedAt: string | null;
}

/** The follows the member sees: their own and, for admins, the organisation's group follows. */
export async function followsOf(
  database: Database,
  member: MemberInfo,
  lawId?: string,
  locale?: Locale,
): Promise<FollowRow[]> {
  const profiles = (await listProfiles(database, member)).filter(
    (p) => (p as { lawId?: string | null }).lawId && (!lawId || (p as { lawId?: string | null }).lawId === lawId),
  );
  if (profiles.length === 0) return [];
  const ids = [...new Set(profiles.map((p) => (p as unknown as { lawId: string }).lawId))];
  const lawRows = await database.db
    .select({ id: laws.id, title: laws.title, updatedAt: laws.updatedAt })
    .from(laws)
    .where(inArray(laws.id, ids));
  const byId = new Map(lawRows.map((l) => [l.id, l]));
  const titles = locale ? await localTitles(database, ids, locale) : new Map<string, string>();
  return profiles.map((p) => {
    const row = p as typeof p & { lawId: string; lawBlocks: string[] };
    const law = byId.get(row.lawId);
    return {
      id: row.id,
      lawId: row.lawId,
      lawTitle: titles.get(row.lawId) ?? law?.title ?? row.lawId,
      blockIds: row.lawBlocks ?? [],
      groupId: row.groupId ?? null,
      groupName: row.groupName,
      emailMode: row.emailMode,
      updatedAt: law?.updatedAt ? law.updatedAt.toISOString() : null,
    };
  });
}

export type { Follow };
