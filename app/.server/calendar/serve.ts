/**
 * GET /calendar/{token}.ics: no session (calendar clients have none), so the token is the whole
 * credential. Rate-limited per client address; an unknown, malformed or revoked token, or a feed
 * whose holder no longer stands, is a plain 404 (the same answer, so nothing tells them apart).
 */

import { fill } from "../../components/app/messages.ts";
import { evidence as en } from "../../i18n/en/evidence.ts";
import { evidence as es } from "../../i18n/es/evidence.ts";
import type { Database } from "../db/client.ts";
import { serveSecretUrlFeed } from "../secret-url-feed.ts";
import { calendarEvents, feedStanding } from "./events.ts";
import { feedForToken } from "./feeds.ts";
import { writeIcs } from "./ics.ts";

/** A client polls every 15 minutes or so; 30 a minute per address leaves room for a shared office address. */
export const calendarRequestsPerMinute = 30;

export function serveCalendarFeed(
  database: Database,
  file: string,
  options: { clientIp: string; siteUrl: string; now?: Date },
): Promise<Response> {
  return serveSecretUrlFeed(database, file, options.clientIp, {
    keyPrefix: "calendar_min",
    perMinute: calendarRequestsPerMinute,
    extension: ".ics",
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="calendar.ics"',
    },
    async render(token) {
      const feed = await feedForToken(database.db, token);
      const owner = feed ? await feedStanding(database, feed) : undefined;
      if (!feed || !owner) return null;
      const events = await calendarEvents(database, feed, owner, options.now);
      const t = owner.locale === "en" ? en : es;
      const name = feed.userId
        ? t.calendar.feedName
        : fill(t.calendar.orgFeedName, { organization: owner.organizationName });
      return writeIcs(events, { locale: owner.locale, name, siteUrl: options.siteUrl, now: options.now });
    },
  });
}
