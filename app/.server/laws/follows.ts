/**
 * Follows: alert profiles with a law scope (alert_profiles.law_id, law_blocks: empty = the whole
 * law; a title or chapter block stands for what it heads). A follow belongs to a user or to one of
 * the organisation's groups and has the usual channels (in-app always; mail now, in the daily digest or none; muted).
 * Any BOE-A id (a law the platform ingested or one a member types), a BOE ELI URL of a law it
 * holds, or an EU act's CELEX number can be followed; the law is registered and fetched by the
 * next poll of its source.
 */
import { randomUUID } from "node:crypto";
import { and, count, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Executor } from "../audit/executor.ts";
import type { Database } from "../db/client.ts";
import { alertProfiles, lawBlocks, laws } from "../db/schema.ts";
import { actCelexOf } from "../law-texts/celex.ts";
import { followedBy, lawStateOf, organisationFollowsLaw } from "./reach.ts";

export const BOE_LAW_ID = /^BOE-A-\d{4}-\d{1,6}$/;
const BOE_ELI = /^https?:\/\/(www\.)?boe\.es\/eli\/es\/[a-z0-9-]+\/\d{4}\/\d{2}\/\d{2}\/[\w-]+/i;

export interface FollowInput {
  lawId: string;
  blockIds: string[];
  /** Exactly one of userId / groupId. */
  userId?: string | null;
  groupId?: string | null;
  name?: string;
  emailMode: "off" | "immediate" | "digest";
  language: "es" | "en";
}

export interface Follow {
  id: string;
  organizationId: string;
  lawId: string;
  blockIds: string[];
  userId: string | null;
  groupId: string | null;
  name: string;
  emailMode: string;
  muted: boolean;
  createdAt: string;
}

export type FollowProblem = "badLawId" | "lawNotFound" | "unknownLaw" | "tooManyFollows" | "badBlocks";

/** FOLLOWS_MAX_PER_ORGANIZATION's default: follows (all of its members' and groups') an organisation may hold. */
export const defaultMaxFollowsPerOrganization = 200;

/**
 * Inside the creating transaction, for an organisation about to follow `lawId`: `unknownLaw` when
 * the source has answered it does not know the id (store.ts markMissing), `tooManyFollows` when the
 * organisation holds `max` follows already (counted under its lock, so concurrent requests cannot
 * pass the cap); undefined when the follow may be created.
 */
export async function followRefusal(
  tx: Executor,
  organizationId: string,
  lawId: string,
  max: number,
): Promise<"unknownLaw" | "tooManyFollows" | undefined> {
  const [law] = await tx
    .select({
      metadata: laws.metadata,
      blocks: sql<number>`(select count(*) from law_blocks b where b.law_id = ${laws.id})`,
    })
    .from(laws)
    .where(eq(laws.id, lawId));
  if (law && lawStateOf(law.metadata, Number(law.blocks)) === "unknown") return "unknownLaw";
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`follows:${organizationId}`}))`);
  const [row] = await tx
    .select({ n: count() })
    .from(alertProfiles)
    .where(and(eq(alertProfiles.organizationId, organizationId), isNotNull(alertProfiles.lawId)));
  return Number(row?.n ?? 0) >= max ? "tooManyFollows" : undefined;
}

/**
 * A typed identifier or ELI to a law id; undefined when it is neither. An ELI is read among the
 * laws the organisation follows only: among every stored law, whether it resolved would tell which
 * laws other organisations follow (decision 0124).
 */
export async function resolveLawId(
  database: Database,
  typed: string,
  organizationId: string,
): Promise<string | undefined | "unknown-eli"> {
  const value = typed.trim();
  if (BOE_LAW_ID.test(value.toUpperCase())) return value.toUpperCase();
  if (BOE_ELI.test(value)) {
    const eli = value.replace(/^http:/i, "https:").replace(/\/(dof|con|spa)(\/.*)?$/, "");
    const [row] = await database.db
      .select({ id: laws.id })
      .from(laws)
      .where(and(or(eq(laws.eli, eli), eq(laws.eli, value)), followedBy(organizationId)));
    return row?.id ?? "unknown-eli";
  }
  return undefined;
}

function toFollow(row: typeof alertProfiles.$inferSelect): Follow {
  return {
    id: row.id,
    organizationId: row.organizationId,
    lawId: row.lawId ?? "",
    blockIds: row.lawBlocks,
    userId: row.userId,
    groupId: row.groupId,
    name: row.name,
    emailMode: row.emailMode,
    muted: row.muted,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A typed BOE id, BOE ELI or CELEX number as a followed law's id and source (BOE-A-…, 32016R0679). */
export async function resolveFollowedLaw(
  database: Database,
  typed: string,
  organizationId: string,
): Promise<{ lawId: string; source: "boe" | "eu" } | { problem: "badLawId" | "lawNotFound" }> {
  const boe = await resolveLawId(database, typed, organizationId);
  if (boe === "unknown-eli") return { problem: "lawNotFound" };
  if (boe) return { lawId: boe, source: "boe" };
  const celex = actCelexOf(typed);
  if (celex && !/^BOE-/i.test(typed.trim())) return { lawId: celex, source: "eu" };
  return { problem: "badLawId" };
}

export async function createFollow(
  database: Database,
  organizationId: string,
  input: FollowInput,
  maxFollows: number = defaultMaxFollowsPerOrganization,
): Promise<{ follow: Follow } | { problem: FollowProblem }> {
  const resolved = await resolveFollowedLaw(database, input.lawId, organizationId);
  if ("problem" in resolved) return resolved;
  const { lawId, source } = resolved;
  const blockIds = [...new Set(input.blockIds)];
  if (blockIds.some((id) => !/^[\w.-]{1,60}$/.test(id))) return { problem: "badBlocks" };
  const stored = await database.db
    .select({ blockId: lawBlocks.blockId })
    .from(lawBlocks)
    .where(eq(lawBlocks.lawId, lawId))
    .limit(1);
  // A law not fetched yet: its blocks are checked when it is (the first poll); a fetched one now,
  // when the organisation follows it already (else the answer would tell that another one does).
  if (blockIds.length > 0 && stored.length > 0 && (await organisationFollowsLaw(database, organizationId, lawId))) {
    const known = await database.db
      .select({ blockId: lawBlocks.blockId })
      .from(lawBlocks)
      .where(and(eq(lawBlocks.lawId, lawId), inArray(lawBlocks.blockId, blockIds)));
    if (known.length !== blockIds.length) return { problem: "badBlocks" };
  }
  return database.db.transaction(async (tx) => {
    const refused = await followRefusal(tx, organizationId, lawId, maxFollows);
    if (refused) return { problem: refused };
    await tx.insert(laws).values({ id: lawId, source, title: lawId }).onConflictDoNothing();
    const [law] = await tx.select({ title: laws.title }).from(laws).where(eq(laws.id, lawId));
    const [row] = await tx
      .insert(alertProfiles)
      .values({
        id: randomUUID(),
        organizationId,
        userId: input.groupId ? null : (input.userId ?? null),
        groupId: input.groupId ?? null,
        // The name given stays the organisation's (alert_profiles); the law row keeps the source's title.
        name: (input.name?.trim() || law?.title || lawId).slice(0, 200),
        emailMode: input.emailMode,
        language: input.language,
        lawId,
        lawBlocks: blockIds,
      })
      .returning();
    return { follow: toFollow(row as typeof alertProfiles.$inferSelect) };
  });
}

/** The follows a member sees: their own and their groups'. */
export async function listFollows(
  database: Database,
  organizationId: string,
  userId: string,
  groupIds: string[],
): Promise<Follow[]> {
  const rows = await database.db
    .select()
    .from(alertProfiles)
    .where(
      and(
        eq(alertProfiles.organizationId, organizationId),
        isNotNull(alertProfiles.lawId),
        groupIds.length
          ? or(eq(alertProfiles.userId, userId), inArray(alertProfiles.groupId, groupIds))
          : eq(alertProfiles.userId, userId),
      ),
    );
  return rows.map(toFollow);
}

/** Deletes a follow of the organisation (the caller checks it is the member's or their group's). */
export async function deleteFollow(
  database: Database,
  organizationId: string,
  id: string,
): Promise<Follow | undefined> {
  const [row] = await database.db
    .delete(alertProfiles)
    .where(
      and(eq(alertProfiles.id, id), eq(alertProfiles.organizationId, organizationId), isNotNull(alertProfiles.lawId)),
    )
    .returning();
  return row ? toFollow(row) : undefined;
}

/** Every follow of the organisation (the API: a token speaks for the organisation). */
export async function listOrganisationFollows(database: Database, organizationId: string): Promise<Follow[]> {
  const rows = await database.db
    .select()
    .from(alertProfiles)
    .where(and(eq(alertProfiles.organizationId, organizationId), isNotNull(alertProfiles.lawId)));
  return rows.map(toFollow);
}

/** A follow as the API shows it (its organisation is the token's). */
export function followView(follow: Follow): Omit<Follow, "organizationId"> {
  const { organizationId: _organization, ...view } = follow;
  return view;
}
