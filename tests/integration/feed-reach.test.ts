/**
 * Issue 22, findings 1 and 2, one at a time: a private feed entry is matched against its own
 * organisation's profiles and webhooks only, and previewed only there; the same guid in another
 * organisation's feed is another document; links other than http(s) are neither stored nor sent.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { previewProfile } from "../../app/.server/alerts/profile-admin.ts";
import { createProfile, profileInputSchema } from "../../app/.server/alerts/profiles.ts";
import { createWebhook, webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { sourceFeeds } from "../../app/.server/db/schema/documents.ts";
import { getDocument, searchDocuments } from "../../app/.server/documents/search.ts";
import type { SourceClients } from "../../app/.server/sources/clients.ts";
import { FEED_PARSER, parseFeed } from "../../app/.server/sources/feeds/feed.ts";
import { ingestFeed } from "../../app/.server/sources/ingest.ts";
import { memoryDirectory, openMigrated } from "../support/alerts-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";

const silent = { info() {}, warn() {}, error() {} };
const today = new Date().toUTCString();
const rss = (items: [guid: string, title: string, link: string][]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>${items
    .map(
      ([guid, title, link]) =>
        `<item><title>${title}</title><link>${link}</link><guid>${guid}</guid><pubDate>${today}</pubDate></item>`,
    )
    .join("")}</channel></rss>`;

function clientsServing(feeds: Record<string, string>): SourceClients {
  return {
    async feed(url: string) {
      const body = feeds[url];
      if (!body) throw new Error(`no feed at ${url}`);
      return {
        value: parseFeed(body),
        provenance: { url, fetchedAt: new Date().toISOString(), sha256: "d".repeat(64), parser: FEED_PARSER },
      };
    },
  } as unknown as SourceClients;
}

for (const target of databaseTargets()) {
  describe(`feed documents' reach on ${target.name}`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await openMigrated(await target.create());
    }, 120_000);
    afterAll(async () => {
      await database?.close();
      await target.cleanup();
    });

    async function addFeed(organizationId: string, url: string) {
      const [feed] = await database.db.insert(sourceFeeds).values({ organizationId, url, name: url }).returning();
      return feed?.id ?? "";
    }

    it("matches a private feed entry against its own organisation's profiles and webhooks only", async () => {
      const es = profileInputSchema("es");
      const feedA = await addFeed("org-1a", "https://one-a.example/rss");
      const ids: string[] = [];
      await ingestFeed(
        {
          database,
          clients: clientsServing({
            "https://one-a.example/rss": rss([["one-a-1", "Privado de A", "https://one-a.example/1"]]),
          }),
          log: silent,
          onDocument: (id) => {
            ids.push(id);
          },
        },
        feedA,
      );
      expect(ids).toHaveLength(1);
      const documentId = ids[0] ?? "";
      const own = await createProfile(database.db, "org-1a", es.parse({ name: "A", userId: "ua" }));
      await createProfile(database.db, "org-1b", es.parse({ name: "B", userId: "ub" }));
      await createProfile(database.db, "org-1b", es.parse({ name: "B feeds", userId: "ub", sources: ["feed"] }));
      const schema = webhookInputSchema("es", { allowPrivate: true });
      const hookA = await createWebhook(database.db, "org-1a", schema.parse({ url: "https://a.example/hook" }));
      await createWebhook(database.db, "org-1b", schema.parse({ url: "https://b.example/hook" }));

      const directory = memoryDirectory(
        [
          { userId: "ua", email: "ua@a.example", language: "es" },
          { userId: "ub", email: "ub@b.example", language: "es" },
        ],
        {},
      );
      const result = await matchDocument(database, documentId, {
        loadDocument: databaseDocuments(database),
        directory,
      });
      expect(result).toMatchObject({ candidates: 1, matched: 1, newMatches: 1 });
      const deliveries = await database.rows<{ channel: string; recipient: string; organization_id: string }>(
        sql`select channel, recipient, organization_id from deliveries where payload::text like ${`%${documentId}%`} order by channel`,
      );
      expect(deliveries).toEqual([
        { channel: "inapp", recipient: "ua", organization_id: "org-1a" },
        { channel: "webhook", recipient: hookA.id, organization_id: "org-1a" },
      ]);
      const matches = await database.rows<{ profile_id: string }>(
        sql`select profile_id::text from alert_matches where document_id = ${documentId}::uuid`,
      );
      expect(matches).toEqual([{ profile_id: own.id }]);

      // The profile form's preview and search: B does not see it, A does.
      const input = es.parse({ name: "x", userId: "u", sources: ["feed"] });
      expect((await previewProfile(database, "org-1b", input)).items).toEqual([]);
      expect((await previewProfile(database, "org-1a", input)).items.map((i) => i.document.id)).toEqual([documentId]);
      expect((await searchDocuments(database, { organizationId: "org-1b", source: "feed" })).facets?.source).toEqual(
        {},
      );
    });

    it("keeps one document per feed for the same guid, and drops links other than http(s)", async () => {
      const urlA = "https://two-a.example/rss";
      const urlB = "https://two-b.example/rss";
      const feedA = await addFeed("org-2a", urlA);
      const feedB = await addFeed("org-2b", urlB);
      const clients = clientsServing({
        [urlA]: rss([["same-guid", "Documento de A", "https://two-a.example/1"]]),
        [urlB]: rss([
          ["same-guid", "Documento de B", "javascript:alert(document.domain)"],
          ["b-data", "Otro de B", "data:text/html;base64,PHNjcmlwdD4="],
          ["b-vb", "Tercero de B", " JAVASCRIPT:alert(1)"],
        ]),
      });
      await ingestFeed({ database, clients, log: silent }, feedA);
      await ingestFeed({ database, clients, log: silent }, feedB);

      const [a] = (await searchDocuments(database, { organizationId: "org-2a", source: "feed" })).items;
      expect(a).toMatchObject({
        sourceId: "same-guid",
        title: "Documento de A",
        officialUrl: "https://two-a.example/1",
      });
      const detailA = await getDocument(database, a?.id ?? "", "org-2a");
      expect(detailA?.provenance.map((p) => p.url)).toEqual([urlA]);
      expect(await getDocument(database, a?.id ?? "", "org-2b")).toBeNull();

      const fromB = (await searchDocuments(database, { organizationId: "org-2b", source: "feed" })).items;
      expect(fromB.map((item) => item.title).sort()).toEqual(["Documento de B", "Otro de B", "Tercero de B"]);
      for (const item of fromB) {
        expect(item.officialUrl).toBe("");
        const detail = await getDocument(database, item.id, "org-2b");
        expect(detail?.links).toEqual({});
      }
      const stored = await database.rows<{ n: number }>(
        sql`select count(*)::int as n from documents where record::text ~* '(javascript|data):'`,
      );
      expect(stored).toEqual([{ n: 0 }]);

      // A second run of either feed changes nothing (the key is stable).
      const again = await ingestFeed({ database, clients, log: silent }, feedA);
      expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    });
  });
}
