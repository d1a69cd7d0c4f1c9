/**
 * Atom feeds of alert profiles (issue 39), as the calendar feeds (decision 0109): a secret URL per
 * profile, `pfd_` and 43 base64url characters (256 random bits), shown once and stored as SHA-256
 * only. Creating one revokes the profile's previous feed, so a profile has at most one live URL;
 * creation and revocation are audited with their actor (`profile_feed.created|revoked`).
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../audit/executor.ts";
import { recordAudit } from "../audit/record.ts";
import { profileFeeds } from "../db/schema/profile-feeds.ts";

export const profileFeedTokenPattern = /^pfd_[A-Za-z0-9_-]{43}$/;

export interface ProfileFeedAudit {
  actor: { id: string; email: string };
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export interface FeedProfile {
  organizationId: string;
  profileId: string;
}

export interface LiveProfileFeed {
  id: string;
  organizationId: string;
  profileId: string;
  createdBy: string;
}

export function hashProfileFeedToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function ofProfile(profile: FeedProfile) {
  return and(eq(profileFeeds.organizationId, profile.organizationId), eq(profileFeeds.profileId, profile.profileId));
}

function auditEvent(profile: FeedProfile, audit: ProfileFeedAudit, action: string, id: string) {
  return {
    organizationId: profile.organizationId,
    actor: audit.actor,
    action,
    object: { type: "profile_feed", id },
    ip: audit.ip,
    userAgent: audit.userAgent,
    detail: { profileId: profile.profileId },
  };
}

/** A new feed for the profile (its previous live one revoked); the token is returned once, never stored. */
export async function createProfileFeed(
  db: Executor,
  profile: FeedProfile,
  audit: ProfileFeedAudit,
): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = `pfd_${randomBytes(32).toString("base64url")}`;
  return db.transaction(async (tx) => {
    const replaced = await tx
      .update(profileFeeds)
      .set({ revokedAt: sql`now()` })
      .where(and(ofProfile(profile), isNull(profileFeeds.revokedAt)))
      .returning({ id: profileFeeds.id });
    await tx.insert(profileFeeds).values({
      id,
      organizationId: profile.organizationId,
      profileId: profile.profileId,
      tokenHash: hashProfileFeedToken(token),
      createdBy: audit.actor.id,
    });
    for (const old of replaced) await recordAudit(tx, auditEvent(profile, audit, "profile_feed.revoked", old.id));
    await recordAudit(tx, auditEvent(profile, audit, "profile_feed.created", id));
    return { id, token };
  });
}

/** Revokes the profile's live feed; false when there was none. */
export async function revokeProfileFeed(db: Executor, profile: FeedProfile, audit: ProfileFeedAudit): Promise<boolean> {
  return db.transaction(async (tx) => {
    const revoked = await tx
      .update(profileFeeds)
      .set({ revokedAt: sql`now()` })
      .where(and(ofProfile(profile), isNull(profileFeeds.revokedAt)))
      .returning({ id: profileFeeds.id });
    for (const row of revoked) await recordAudit(tx, auditEvent(profile, audit, "profile_feed.revoked", row.id));
    return revoked.length > 0;
  });
}

/** The profile's live feed (when it was made; never its hash), or undefined. */
export async function liveProfileFeed(db: Executor, profile: FeedProfile): Promise<{ createdAt: Date } | undefined> {
  const [row] = await db
    .select({ createdAt: profileFeeds.createdAt })
    .from(profileFeeds)
    .where(and(ofProfile(profile), isNull(profileFeeds.revokedAt)))
    .orderBy(desc(profileFeeds.createdAt))
    .limit(1);
  return row;
}

/** The live feed a token opens, or undefined (malformed, unknown or revoked: the route answers 404 alike). */
export async function profileFeedForToken(db: Executor, token: string): Promise<LiveProfileFeed | undefined> {
  if (!profileFeedTokenPattern.test(token)) return undefined;
  const [row] = await db
    .select({
      id: profileFeeds.id,
      organizationId: profileFeeds.organizationId,
      profileId: profileFeeds.profileId,
      createdBy: profileFeeds.createdBy,
    })
    .from(profileFeeds)
    .where(and(eq(profileFeeds.tokenHash, hashProfileFeedToken(token)), isNull(profileFeeds.revokedAt)));
  return row;
}

/**
 * Revokes every live feed a member made (suspension, deactivation), in the caller's transaction;
 * the standing check at read time refuses them anyway, this makes it final. Returns how many.
 */
export async function revokeProfileFeedsOf(tx: Executor, organizationId: string, userId: string): Promise<number> {
  const rows = await tx
    .update(profileFeeds)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(profileFeeds.organizationId, organizationId),
        eq(profileFeeds.createdBy, userId),
        isNull(profileFeeds.revokedAt),
      ),
    )
    .returning({ id: profileFeeds.id });
  return rows.length;
}
