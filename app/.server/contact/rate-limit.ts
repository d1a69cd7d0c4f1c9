/**
 * Per-client-IP limits on POST /mail/send: memory by default, PostgreSQL when DATABASE_URL is
 * set so every instance shares the counts. If the shared store fails, a memory limiter insures it.
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

export async function createRateLimiter(
  limits: { perMinute: number; perHour: number },
  pool?: pg.Pool,
): Promise<RateLimiter> {
  const windows = [
    { keyPrefix: "contact_min", points: limits.perMinute, duration: 60 },
    { keyPrefix: "contact_hour", points: limits.perHour, duration: 3600 },
  ];
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
