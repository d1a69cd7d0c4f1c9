/**
 * GET /calendar/{token}.ics: no session (calendar clients have none), so the token is the whole
 * credential. Rate-limited per client address; an unknown, malformed or revoked token, or a feed
 * whose holder no longer stands, is a plain 404 (the same answer, so nothing tells them apart).
 */

import { fill } from "../../components/app/messages.ts";
import { evidence as en } from "../../i18n/en/evidence.ts";
import { evidence as es } from "../../i18n/es/evidence.ts";
import type { Database } from "../db/client.ts";
import { createWindowedRateLimiter, type RateLimiter } from "../rate-limit.ts";
import { calendarEvents, feedStanding } from "./events.ts";
import { feedForToken } from "./feeds.ts";
import { writeIcs } from "./ics.ts";

/** A client polls every 15 minutes or so; 30 a minute per address leaves room for a shared office address. */
export const calendarRequestsPerMinute = 30;

const limiters = new WeakMap<Database, Promise<RateLimiter>>();

function limiterFor(database: Database): Promise<RateLimiter> {
  let limiter = limiters.get(database);
  if (!limiter) {
    limiter = createWindowedRateLimiter(
      [{ keyPrefix: "calendar_min", points: calendarRequestsPerMinute, duration: 60 }],
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

export async function serveCalendarFeed(
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
  if (!file.endsWith(".ics")) return notFound();
  const feed = await feedForToken(database.db, file.slice(0, -4));
  if (!feed) return notFound();
  const owner = await feedStanding(database, feed);
  if (!owner) return notFound();
  const events = await calendarEvents(database, feed, owner, options.now);
  const t = owner.locale === "en" ? en : es;
  const name = feed.userId
    ? t.calendar.feedName
    : fill(t.calendar.orgFeedName, { organization: owner.organizationName });
  const body = writeIcs(events, { locale: owner.locale, name, siteUrl: options.siteUrl, now: options.now });
  return new Response(body, {
    status: 200,
    headers: {
      ...baseHeaders,
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="calendar.ics"',
    },
  });
}
