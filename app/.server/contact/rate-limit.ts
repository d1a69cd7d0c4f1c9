/** Per-client-IP limits on POST /mail/send (shared across instances with PostgreSQL). */
import type pg from "pg";
import { createWindowedRateLimiter, type RateLimiter } from "../rate-limit.ts";

export type { RateLimiter, RateLimitResult } from "../rate-limit.ts";

export function createRateLimiter(
  limits: { perMinute: number; perHour: number },
  pool?: pg.Pool,
): Promise<RateLimiter> {
  return createWindowedRateLimiter(
    [
      { keyPrefix: "contact_min", points: limits.perMinute, duration: 60 },
      { keyPrefix: "contact_hour", points: limits.perHour, duration: 3600 },
    ],
    pool,
  );
}
