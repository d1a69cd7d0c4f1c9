/**
 * Requests per minute per API token (per client IP for requests without a valid token):
 * memory by default, PostgreSQL when DATABASE_URL is set so every instance shares the counts,
 * with a memory limiter as insurance if the shared store fails.
 */
import type pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from "rate-limiter-flexible";
import type { RateLimiter } from "../contact/rate-limit.ts";

export async function createApiRateLimiter(perMinute: number, pool?: pg.Pool): Promise<RateLimiter> {
  const window = { keyPrefix: "api_min", points: perMinute, duration: 60 };
  const insuranceLimiter = new RateLimiterMemory(window);
  const limiter: RateLimiterAbstract = pool
    ? await new Promise<RateLimiterAbstract>((resolve) => {
        const store: RateLimiterPostgres = new RateLimiterPostgres(
          { ...window, storeClient: pool, storeType: "pool", tableName: "rate_limits", insuranceLimiter },
          (error?: unknown) => resolve(error ? insuranceLimiter : store),
        );
      })
    : insuranceLimiter;
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
        return { allowed: true };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        }
        throw rejection;
      }
    },
  };
}
