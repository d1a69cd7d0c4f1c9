/**
 * Admins' RSS/Atom feeds through the pg-boss jobs on PGlite: runFeedsNow (what the schedule runs
 * every interval) queues one job per feed; its entries become feed documents with the feed's name.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import { sourceFeeds } from "../../app/.server/db/schema/documents.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { createJobs } from "../../app/.server/sources/jobs.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

const silent = { info() {}, warn() {}, error() {} };
const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>CNMV</title>
<item><title>Comunicación sobre criptoactivos</title><link>https://www.cnmv.es/1</link><guid>cnmv-1</guid><pubDate>Tue, 07 Apr 2026 10:00:00 GMT</pubDate><description>La CNMV advierte sobre los criptoactivos.</description></item>
<item><title>Circular 1/2026</title><link>https://www.cnmv.es/2</link><guid>cnmv-2</guid><pubDate>Wed, 08 Apr 2026 10:00:00 GMT</pubDate></item>
</channel></rss>`;

describe("feed jobs", () => {
  let database: Database;
  let server: Server;
  let url = "";
  let hits = 0;
  beforeAll(async () => {
    database = await openMigratedDatabase();
    server = createServer((request, response) => {
      // The feed's own requests (the BOE's start-up check of today's issue also lands here).
      if (request.url === "/rss") hits++;
      response.writeHead(200, { "content-type": "application/rss+xml" });
      response.end(rss);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rss`;
  }, 120_000);
  afterAll(async () => {
    server?.close();
    await database?.close();
  });

  it("queues every feed and stores its entries as feed documents", async () => {
    await database.db.insert(sourceFeeds).values({ organizationId: "org-a", url, name: "CNMV — Novedades" });
    const jobs = createJobs({
      database,
      config: {
        siteUrl: "http://localhost",
        sources: {
          boeApiUrl: "",
          eurlexUrl: "",
          cellarSparqlUrl: "",
          cellarUrl: "",
          ingest: ["boe"],
          since: undefined,
          intervalSeconds: 300,
        },
      },
      log: silent,
      clients: createSourceClients({
        urls: { boeApiUrl: url, eurlexUrl: url, cellarUrl: url, cellarSparqlUrl: url },
        siteUrl: "http://localhost",
        perSecond: 1000,
        feedPolicy: { allowPrivate: true },
      }),
    });
    expect(await jobs.runFeedsNow()).toBe(0);
    await jobs.start();
    try {
      expect(await jobs.runFeedsNow()).toBe(1);
      const deadline = Date.now() + 60_000;
      let rows: { source_id: string; title: string; feed: string; url: string }[] = [];
      while (Date.now() < deadline) {
        rows = await database.rows(
          sql`select source_id, title, record->>'feedName' as feed, record->'provenance'->0->>'url' as url
              from documents where source = 'feed' order by source_id`,
        );
        if (rows.length >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      expect(rows).toEqual([
        { source_id: "cnmv-1", title: "Comunicación sobre criptoactivos", feed: "CNMV — Novedades", url },
        { source_id: "cnmv-2", title: "Circular 1/2026", feed: "CNMV — Novedades", url },
      ]);
      expect(hits).toBe(1);
    } finally {
      await jobs.stop();
    }
  }, 120_000);
});
