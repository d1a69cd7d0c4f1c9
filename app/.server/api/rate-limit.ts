/** Requests per minute per API token (per client IP for requests without a valid token). */
import type pg from "pg";
import { createWindowedRateLimiter, type RateLimiter } from "../rate-limit.ts";

export function createApiRateLimiter(perMinute: number, pool?: pg.Pool): Promise<RateLimiter> {
  return createWindowedRateLimiter([{ keyPrefix: "api_min", points: perMinute, duration: 60 }], pool);
}
