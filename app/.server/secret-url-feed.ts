/**
 * A feed behind a secret URL (/calendar/{token}.ics, /feeds/{token}.atom): no session, so the
 * token is the whole credential. Rate-limited per client address; a wrong extension, an unknown
 * or revoked token, or a feed whose holder no longer stands is one plain 404, so nothing tells
 * them apart. Each feed gives its extension, limit and how to render a token's body (null: 404).
 */
import type { Database } from "./db/client.ts";
import { createWindowedRateLimiter, type RateLimiter } from "./rate-limit.ts";

export interface SecretUrlFeed {
  /** The rate limiter's key prefix (one per kind of feed). */
  keyPrefix: string;
  perMinute: number;
  /** ".ics", ".atom". */
  extension: string;
  headers: Record<string, string>;
  /** The body for a token, or null when there is nothing to show it. */
  render(token: string): Promise<string | null>;
}

const limiters = new WeakMap<Database, Map<string, Promise<RateLimiter>>>();

function limiterFor(database: Database, keyPrefix: string, perMinute: number): Promise<RateLimiter> {
  let byPrefix = limiters.get(database);
  if (!byPrefix) {
    byPrefix = new Map();
    limiters.set(database, byPrefix);
  }
  let limiter = byPrefix.get(keyPrefix);
  if (!limiter) {
    limiter = createWindowedRateLimiter([{ keyPrefix, points: perMinute, duration: 60 }], database.pool);
    byPrefix.set(keyPrefix, limiter);
  }
  return limiter;
}

const baseHeaders = {
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "no-referrer",
};

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { ...baseHeaders, "Content-Type": "text/plain; charset=utf-8", ...headers },
  });
}

export async function serveSecretUrlFeed(
  database: Database,
  file: string,
  clientIp: string,
  feed: SecretUrlFeed,
): Promise<Response> {
  const limit = await (await limiterFor(database, feed.keyPrefix, feed.perMinute)).consume(`ip:${clientIp}`);
  if (!limit.allowed) return plain(429, "Too many requests", { "Retry-After": String(limit.retryAfterSeconds) });
  if (!file.endsWith(feed.extension)) return plain(404, "Not found");
  const body = await feed.render(file.slice(0, -feed.extension.length));
  if (body === null) return plain(404, "Not found");
  return new Response(body, { status: 200, headers: { ...baseHeaders, ...feed.headers } });
}
