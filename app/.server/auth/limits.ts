/**
 * Sign-in limits. Per account: more than 10 failures in 15 minutes refuse further tries for 15
 * minutes (counted in auth_sign_in_failure, so every instance agrees). Per client IP:
 * rate-limiter-flexible (memory, or PostgreSQL when DATABASE_URL is set, as the contact form).
 */
import { randomUUID } from "node:crypto";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type pg from "pg";
import type { Db } from "../db/client.ts";
import { signInFailure } from "../db/schema/auth.ts";
import { createWindowedRateLimiter, type RateLimiter, type RateLimitWindow } from "../rate-limit.ts";

export const lockoutFailures = 10;
export const lockoutWindowMs = 15 * 60_000;

export interface AccountLock {
  locked: boolean;
  retryAfterSeconds: number;
}

/** Locked when more than 10 failures happened in the last 15 minutes; open 15 minutes after the last one. */
export async function accountLock(db: Db, email: string, now: Date = new Date()): Promise<AccountLock> {
  const since = new Date(now.getTime() - lockoutWindowMs);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`, last: sql<Date | string | null>`max(${signInFailure.at})` })
    .from(signInFailure)
    .where(and(eq(signInFailure.email, email.toLowerCase()), gte(signInFailure.at, since)));
  if (!row || row.n <= lockoutFailures || !row.last) return { locked: false, retryAfterSeconds: 0 };
  const last = new Date(row.last).getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((last + lockoutWindowMs - now.getTime()) / 1000));
  return { locked: true, retryAfterSeconds };
}

export async function recordSignInFailure(db: Db, email: string, now: Date = new Date()): Promise<void> {
  await db.insert(signInFailure).values({ id: randomUUID(), email: email.toLowerCase(), at: now });
  // Old rows are of no use after the window.
  await db.delete(signInFailure).where(lt(signInFailure.at, new Date(now.getTime() - 2 * lockoutWindowMs)));
}

export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.delete(signInFailure).where(eq(signInFailure.email, email.toLowerCase()));
}

export type IpLimiter = RateLimiter;

/** Sign-in attempts per client IP: 30 a minute, 300 an hour. */
export function createIpLimiter(
  pool?: pg.Pool,
  windows: RateLimitWindow[] = [
    { keyPrefix: "auth_ip_min", points: 30, duration: 60 },
    { keyPrefix: "auth_ip_hour", points: 300, duration: 3600 },
  ],
): Promise<IpLimiter> {
  return createWindowedRateLimiter(windows, pool);
}
