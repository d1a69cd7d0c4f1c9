/**
 * GET /feeds/{token}.atom: no session (feed readers have none), so the token is the whole
 * credential. Rate-limited per client address; an unknown, malformed or revoked token, or a feed
 * whose maker no longer stands, is a plain 404 (the same answer, so nothing tells them apart).
 * Fetches are not audited (readers poll every few minutes); creation and revocation are.
 */
import type { Database } from "../db/client.ts";
import { serveSecretUrlFeed } from "../secret-url-feed.ts";
import { writeProfileAtom } from "./atom.ts";
import { feedEntries, feedHolder } from "./content.ts";
import { profileFeedForToken } from "./tokens.ts";

/** Readers poll every few minutes; 30 a minute per address leaves room for a shared office address. */
export const profileFeedRequestsPerMinute = 30;

export function serveProfileFeed(
  database: Database,
  file: string,
  options: { clientIp: string; siteUrl: string; now?: Date },
): Promise<Response> {
  return serveSecretUrlFeed(database, file, options.clientIp, {
    keyPrefix: "profile_feed_min",
    perMinute: profileFeedRequestsPerMinute,
    extension: ".atom",
    headers: { "Content-Type": "application/atom+xml; charset=utf-8" },
    async render(token) {
      const feed = await profileFeedForToken(database.db, token);
      const holder = feed ? await feedHolder(database, feed) : undefined;
      if (!feed || !holder) return null;
      const entries = await feedEntries(database, feed);
      return writeProfileAtom(holder, entries, { feedId: feed.id, siteUrl: options.siteUrl, now: options.now });
    },
  });
}
