/**
 * Sign-in limits (decision 0082). Failures are counted per account and per client address (as an
 * HMAC, audit/ip-hash.ts) in auth_sign_in_failure, so every instance agrees:
 * - one address: more than 5 failures for an account in 15 minutes refuse that address for that
 *   account for 15 minutes (the owner signing in from elsewhere is not affected);
 * - the account: more than 10 failures in 15 minutes from at least 3 addresses lock it for every
 *   address (a distributed guess), open again 15 minutes after the last failure.
 * Per client address across accounts: rate-limiter-flexible (memory, or PostgreSQL when
 * DATABASE_URL is set, as the contact form). Every refusal carries its Retry-After.
 */
import { randomUUID } from "node:crypto";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type pg from "pg";
import { hashIp } from "../audit/ip-hash.ts";
import type { Db } from "../db/client.ts";
import { signInFailure } from "../db/schema/auth.ts";
import { createWindowedRateLimiter, type RateLimiter, type RateLimitWindow } from "../rate-limit.ts";

/** Failures of one account from one address before that address is refused. */
export const addressFailures = 5;
/** Failures of one account before the account locks... */
export const lockoutFailures = 10;
/** ...when they came from at least this many addresses. */
export const lockoutAddresses = 3;
export const lockoutWindowMs = 15 * 60_000;

export interface AccountLock {
  locked: boolean;
  /** "address": this address is refused for the account; "account": every address is. */
  scope?: "address" | "account";
  retryAfterSeconds: number;
}

/** The address as stored: an HMAC, never the address itself. */
export function signInAddressKey(ip: string): string {
  return hashIp("sign-in", ip);
}

function retryAfter(last: Date | string, now: Date): number {
  return Math.max(1, Math.ceil((new Date(last).getTime() + lockoutWindowMs - now.getTime()) / 1000));
}

/** Whether a sign-in of `email` from `ip` is refused now, and for how long. */
export async function accountLock(db: Db, email: string, ip?: string, now: Date = new Date()): Promise<AccountLock> {
  const since = new Date(now.getTime() - lockoutWindowMs);
  const own = ip === undefined ? null : signInAddressKey(ip);
  const [row] = await db
    .select({
      mine: sql<number>`count(*) filter (where ${signInFailure.ipHash} = ${own ?? ""})::int`,
      mineLast: sql<
        Date | string | null
      >`max(${signInFailure.at}) filter (where ${signInFailure.ipHash} = ${own ?? ""})`,
      all: sql<number>`count(*)::int`,
      addresses: sql<number>`count(distinct coalesce(${signInFailure.ipHash}, ${signInFailure.id}))::int`,
      last: sql<Date | string | null>`max(${signInFailure.at})`,
    })
    .from(signInFailure)
    .where(and(eq(signInFailure.email, email.toLowerCase()), gte(signInFailure.at, since)));
  if (!row) return { locked: false, retryAfterSeconds: 0 };
  if (row.all > lockoutFailures && row.addresses >= lockoutAddresses && row.last) {
    return { locked: true, scope: "account", retryAfterSeconds: retryAfter(row.last, now) };
  }
  if (row.mine > addressFailures && row.mineLast) {
    return { locked: true, scope: "address", retryAfterSeconds: retryAfter(row.mineLast, now) };
  }
  return { locked: false, retryAfterSeconds: 0 };
}

export async function recordSignInFailure(db: Db, email: string, ip?: string, now: Date = new Date()): Promise<void> {
  await db.insert(signInFailure).values({
    id: randomUUID(),
    email: email.toLowerCase(),
    ipHash: ip === undefined ? null : signInAddressKey(ip),
    at: now,
  });
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
