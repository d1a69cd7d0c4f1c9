/**
 * Calendar feeds: a secret URL per member (their own work) or per organisation (everyone's),
 * `cal_` and 43 base64url characters (256 random bits), shown once and stored as SHA-256 only
 * (like API tokens: a leaked database leaks no usable URL). Creating one revokes the holder's
 * previous feed, so a member or an organisation has at most one live URL; both are audited.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../audit/executor.ts";
import { recordAudit } from "../audit/record.ts";
import { calendarFeeds } from "../db/schema/calendar.ts";

export const calendarTokenPattern = /^cal_[A-Za-z0-9_-]{43}$/;

export interface FeedAudit {
  actor: { id: string; email: string };
  ip?: string | undefined;
  userAgent?: string | undefined;
}

/** Whose feed: a member's (userId) or the organisation's (userId null). */
export interface FeedOwner {
  organizationId: string;
  userId: string | null;
}

export interface FeedSummary {
  id: string;
  userId: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface LiveFeed {
  id: string;
  organizationId: string;
  userId: string | null;
}

export function hashCalendarToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function ownerIs(owner: FeedOwner) {
  return and(
    eq(calendarFeeds.organizationId, owner.organizationId),
    owner.userId === null ? isNull(calendarFeeds.userId) : eq(calendarFeeds.userId, owner.userId),
  );
}

function auditEvent(owner: FeedOwner, audit: FeedAudit, action: string, id: string) {
  return {
    organizationId: owner.organizationId,
    actor: audit.actor,
    action,
    object: { type: "calendar_feed", id },
    ip: audit.ip,
    userAgent: audit.userAgent,
    detail: { scope: owner.userId === null ? "organization" : "user", userId: owner.userId },
  };
}

/** A new feed for `owner` (the previous live one revoked); the token is returned once, never stored. */
export async function createCalendarFeed(
  db: Executor,
  owner: FeedOwner,
  audit: FeedAudit,
): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = `cal_${randomBytes(32).toString("base64url")}`;
  return db.transaction(async (tx) => {
    const replaced = await tx
      .update(calendarFeeds)
      .set({ revokedAt: sql`now()` })
      .where(and(ownerIs(owner), isNull(calendarFeeds.revokedAt)))
      .returning({ id: calendarFeeds.id });
    await tx.insert(calendarFeeds).values({
      id,
      organizationId: owner.organizationId,
      userId: owner.userId,
      tokenHash: hashCalendarToken(token),
      createdBy: audit.actor.id,
    });
    for (const old of replaced) await recordAudit(tx, auditEvent(owner, audit, "calendar_feed.revoked", old.id));
    await recordAudit(tx, auditEvent(owner, audit, "calendar_feed.created", id));
    return { id, token };
  });
}

/** Revokes `owner`'s live feed; false when there was none. */
export async function revokeCalendarFeed(db: Executor, owner: FeedOwner, audit: FeedAudit): Promise<boolean> {
  return db.transaction(async (tx) => {
    const revoked = await tx
      .update(calendarFeeds)
      .set({ revokedAt: sql`now()` })
      .where(and(ownerIs(owner), isNull(calendarFeeds.revokedAt)))
      .returning({ id: calendarFeeds.id });
    for (const row of revoked) await recordAudit(tx, auditEvent(owner, audit, "calendar_feed.revoked", row.id));
    return revoked.length > 0;
  });
}

/** `owner`'s live feed (never its hash), or undefined. */
export async function liveCalendarFeed(db: Executor, owner: FeedOwner): Promise<FeedSummary | undefined> {
  const [row] = await db
    .select({
      id: calendarFeeds.id,
      userId: calendarFeeds.userId,
      createdAt: calendarFeeds.createdAt,
      revokedAt: calendarFeeds.revokedAt,
    })
    .from(calendarFeeds)
    .where(and(ownerIs(owner), isNull(calendarFeeds.revokedAt)))
    .orderBy(desc(calendarFeeds.createdAt))
    .limit(1);
  return row;
}

/** The live feed a token opens, or undefined (malformed, unknown or revoked: the route answers 404 alike). */
export async function feedForToken(db: Executor, token: string): Promise<LiveFeed | undefined> {
  if (!calendarTokenPattern.test(token)) return undefined;
  const [row] = await db
    .select({ id: calendarFeeds.id, organizationId: calendarFeeds.organizationId, userId: calendarFeeds.userId })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.tokenHash, hashCalendarToken(token)), isNull(calendarFeeds.revokedAt)));
  return row;
}
