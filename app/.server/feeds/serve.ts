/**
 * GET /feeds/{token}.atom: no session (feed readers have none), so the token is the whole
 * credential. Rate-limited per client address; an unknown, malformed or revoked token, or a feed
 * whose maker no longer stands, is a plain 404 (the same answer, so nothing tells them apart).
 * Fetches are not audited (readers poll every few minutes); creation and revocation are.
 */
import type { Database } from "../db/client.ts";
import { createWindowedRateLimiter, type RateLimiter } from "../rate-limit.ts";
import { writeProfileAtom } from "./atom.ts";
import { feedEntries, feedHolder } from "./content.ts";
import { profileFeedForToken } from "./tokens.ts";

/** Readers poll every few minutes; 30 a minute per address leaves room for a shared office address. */
export const profileFeedRequestsPerMinute = 30;

const limiters = new WeakMap<Database, Promise<RateLimiter>>();

function limiterFor(database: Database): Promise<RateLimiter> {
  let limiter = limiters.get(database);
  if (!limiter) {
    limiter = createWindowedRateLimiter(
      [{ keyPrefix: "profile_feed_min", points: profileFeedRequestsPerMinute, duration: 60 }],
      database.pool,
    );
    limiters.set(database, limiter);
  }
  return limiter;
}

const baseHeaders = {
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "no-referrer",
};

function notFound(): Response {
  return new Response("Not found\n", {
    status: 404,
    headers: { ...baseHeaders, "Content-Type": "text/plain; charset=utf-8" },
  });
}

export async function serveProfileFeed(
  database: Database,
  file: string,
  options: { clientIp: string; siteUrl: string; now?: Date },
): Promise<Response> {
  const limit = await (await limiterFor(database)).consume(`ip:${options.clientIp}`);
  if (!limit.allowed) {
    return new Response("Too many requests\n", {
      status: 429,
      headers: {
        ...baseHeaders,
        "Content-Type": "text/plain; charset=utf-8",
        "Retry-After": String(limit.retryAfterSeconds),
      },
    });
  }
  if (!file.endsWith(".atom")) return notFound();
  const feed = await profileFeedForToken(database.db, file.slice(0, -5));
  if (!feed) return notFound();
  const holder = await feedHolder(database, feed);
  if (!holder) return notFound();
  const entries = await feedEntries(database, feed);
  const body = writeProfileAtom(holder, entries, { feedId: feed.id, siteUrl: options.siteUrl, now: options.now });
  return new Response(body, {
    status: 200,
    headers: { ...baseHeaders, "Content-Type": "application/atom+xml; charset=utf-8" },
  });
}
