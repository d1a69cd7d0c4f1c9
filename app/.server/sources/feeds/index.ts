/**
 * Admins' RSS/Atom feeds: each organisation's own feeds (source_feeds rows), fetched through
 * the outbound guard every interval during the day, one job per feed. Documents have source
 * "feed"; each feed has its own line on its organisation's Sources page.
 */
import { asc, eq } from "drizzle-orm";
import { sourceFeeds } from "../../db/schema/documents.ts";
import { ingestFeed } from "../ingest.ts";
import { defineSource } from "../plugin.ts";
import { FEED_PARSER } from "./feed.ts";

const QUEUES = {
  feed: "ingest-feed",
  /** Fans out one ingest-feed job per admin-added feed (every interval during the day). */
  all: "ingest-feeds",
} as const;

const FEED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const feedSource = defineSource({
  id: "feed",
  labels: { es: "Feed RSS/Atom", en: "RSS/Atom feed" },
  descriptions: {
    es: "Los feeds RSS o Atom que añaden los administradores de tu organización.",
    en: "The RSS or Atom feeds your organisation's admins add.",
  },
  // Runs whenever ingestion is on, whichever official sources INGEST_SOURCES names.
  selectable: false,
  parsers: [FEED_PARSER],
  plan(context) {
    const queueFeed = (feedId: string) =>
      context.send(QUEUES.feed, { feedId }, { singletonKey: `feed:${feedId}`, singletonSeconds: 30 });
    const queueAll = async () => {
      const feeds = await context.database.db.select({ id: sourceFeeds.id }).from(sourceFeeds);
      let queued = 0;
      for (const feed of feeds) if (await queueFeed(feed.id)) queued++;
      return queued;
    };
    return {
      queues: [
        {
          name: QUEUES.feed,
          async work(data) {
            // A feed removed since it was queued is not an error.
            if (typeof data.feedId === "string")
              await ingestFeed(context.deps({ freshSeconds: 0 }), data.feedId).catch(feedGone);
          },
        },
        {
          name: QUEUES.all,
          async work() {
            await queueAll();
          },
        },
      ],
      schedules: [{ queue: QUEUES.all, cron: `${context.everyInterval} 6-20 * * *`, key: "day" }],
      runNow: (id) => queueFeed(id),
      runAllNow: queueAll,
    };
  },
  ownsId: (id) => FEED_ID.test(id),
  async entries(db, organizationId) {
    const feeds = await db
      .select()
      .from(sourceFeeds)
      .where(eq(sourceFeeds.organizationId, organizationId))
      .orderBy(asc(sourceFeeds.createdAt), asc(sourceFeeds.name));
    return feeds.map((feed) => ({ id: feed.id, statusKey: `feed:${feed.id}`, name: feed.name, url: feed.url }));
  },
});

function feedGone(error: unknown): void {
  if (error instanceof Error && /^feed .* not found$/.test(error.message)) return;
  throw error;
}
