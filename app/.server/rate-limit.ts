/**
 * Counting windows shared by every limit of the app (contact form, sign-in per IP, API per
 * token): memory by default, PostgreSQL when DATABASE_URL is set so every instance shares the
 * counts, with a memory limiter as insurance if the shared store fails.
 */
import type pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from "rate-limiter-flexible";

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  consume(key: string): Promise<RateLimitResult>;
}

export interface RateLimitWindow {
  /** Distinguishes this limit's counters in the shared table. */
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}

/** A key is allowed while every window has points left. */
export async function createWindowedRateLimiter(windows: RateLimitWindow[], pool?: pg.Pool): Promise<RateLimiter> {
  const limiters: RateLimiterAbstract[] = [];
  for (const window of windows) {
    const insuranceLimiter = new RateLimiterMemory(window);
    if (!pool) {
      limiters.push(insuranceLimiter);
      continue;
    }
    limiters.push(
      await new Promise<RateLimiterAbstract>((resolve) => {
        const limiter: RateLimiterPostgres = new RateLimiterPostgres(
          { ...window, storeClient: pool, storeType: "pool", tableName: "rate_limits", insuranceLimiter },
          (error?: unknown) => resolve(error ? insuranceLimiter : limiter),
        );
      }),
    );
  }
  return {
    async consume(key) {
      for (const limiter of limiters) {
        try {
          await limiter.consume(key);
        } catch (rejection) {
          if (rejection instanceof RateLimiterRes) {
            return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
          }
          throw rejection;
        }
      }
      return { allowed: true };
    },
  };
}
