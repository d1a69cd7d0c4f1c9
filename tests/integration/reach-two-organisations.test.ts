/**
 * Issue 22, finding 1 (done-when): two organisations, each with a private feed, profiles (in-app,
 * immediate mail, digest, group chat) and a webhook without filters. Both feeds publish an entry
 * with the same guid (finding 2). Every document is matched as ingestion does, the worker sends
 * through a real SMTP peer and a real HTTP receiver, the digests are built and sent, and the
 * profile preview, search facets and organisation topics are read: each organisation gets its own
 * feed's entries and the public ones, never the other's.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueDueDigests } from "../../app/.server/alerts/channels/digest/index.ts";
import { databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { previewProfile } from "../../app/.server/alerts/profile-admin.ts";
import { createProfile, profileInputSchema } from "../../app/.server/alerts/profiles.ts";
import { createWebhook, webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import { createDeliveryWorker } from "../../app/.server/alerts/worker.ts";
import { listTopics, matchDocumentTopics, rematchOrganisation } from "../../app/.server/classify/topics.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { sourceFeeds } from "../../app/.server/db/schema/documents.ts";
import { organizationTopics } from "../../app/.server/db/schema.ts";
import { searchDocuments } from "../../app/.server/documents/search.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport, type MailTransport } from "../../app/.server/mail/transport.ts";
import type { SourceClients } from "../../app/.server/sources/clients.ts";
import { FEED_PARSER, parseFeed } from "../../app/.server/sources/feeds/feed.ts";
import { ingestFeed } from "../../app/.server/sources/ingest.ts";
import { insertStoredDocument, memoryDirectory, openMigrated, startReceiver } from "../support/alerts-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";

const log = createLogger("silent");
const silent = { info() {}, warn() {}, error() {} };

const item = (guid: string, title: string, link: string) =>
  `<item><title>${title}</title><link>${link}</link><guid>${guid}</guid><pubDate>${new Date().toUTCString()}</pubDate><description>${title} texto interno</description></item>`;
const rss = (items: string[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>${items.join("")}</channel></rss>`;
const feeds: Record<string, string> = {
  "https://alfa.example/private.rss": rss([
    item("shared-1", "ALFAPRIV aviso reservado", "https://alfa.example/1"),
    item("alfa-2", "ALFAPRIV circular interna", "javascript:alert(document.cookie)"),
  ]),
  "https://beta.example/private.rss": rss([
    item("shared-1", "BETAPRIV aviso reservado", "https://beta.example/1"),
    item("beta-2", "BETAPRIV nota interna", "data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"),
  ]),
};
/** The feed client, without the network: the bytes each feed URL serves. */
const clients = {
  async feed(url: string) {
    const body = feeds[url];
    if (!body) throw new Error(`no feed at ${url}`);
    return {
      value: parseFeed(body),
      provenance: { url, fetchedAt: new Date().toISOString(), sha256: "c".repeat(64), parser: FEED_PARSER },
    };
  },
} as unknown as SourceClients;

function decodeQuotedPrintable(raw: string): string {
  const soft = raw.replace(/=\r?\n/g, "");
  return Buffer.from(
    soft.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");
}

/** The first moment after `now` when it is `hour` o'clock in Madrid on the day after today (Madrid). */
function nextDigestMoment(hour: number, now = new Date()): Date {
  const madrid = (d: Date) =>
    new Intl.DateTimeFormat("en-CA", {
      timeZone: "Europe/Madrid",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      hourCycle: "h23",
    }).format(d);
  const today = madrid(now).slice(0, 10);
  for (let t = now.getTime(); t < now.getTime() + 72 * 3600_000; t += 15 * 60_000) {
    const at = new Date(t);
    const [day, h] = madrid(at).split(", ");
    if (day !== today && Number(h) === hour) return at;
  }
  throw new Error("no digest moment");
}

for (const target of databaseTargets()) {
  describe(`two organisations with private feeds on ${target.name}`, () => {
    let database: Database;
    let sink: SmtpSink;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let transport: MailTransport;
    const directory = memoryDirectory(
      [
        { userId: "a-inapp", email: "a-inapp@alfa.example", language: "es" },
        { userId: "a-mail", email: "a-mail@alfa.example", language: "es" },
        { userId: "a-digest", email: "a-digest@alfa.example", language: "en" },
        { userId: "b-inapp", email: "b-inapp@beta.example", language: "es" },
        { userId: "b-mail", email: "b-mail@beta.example", language: "en" },
        { userId: "b-digest", email: "b-digest@beta.example", language: "es" },
      ],
      { "a-team": ["a-inapp", "a-mail"], "b-team": ["b-inapp", "b-mail"] },
    );

    beforeAll(async () => {
      database = await openMigrated(await target.create());
      sink = await startSmtpSink();
      receiver = await startReceiver();
      transport = createMailTransport({ smtpUrl: sink.url, dataDir: "/tmp", log });
    }, 120_000);
    afterAll(async () => {
      transport?.close();
      await database?.close();
      await sink?.stop();
      await receiver?.stop();
      await target.cleanup();
    });

    it("fans every document out to its own organisation only, on every channel", async () => {
      const es = profileInputSchema("es");
      const profiles: Record<string, { id: string }> = {};
      for (const [org, prefix] of [
        ["org-alfa", "a"],
        ["org-beta", "b"],
      ] as const) {
        profiles[`${prefix}-inapp`] = await createProfile(
          database.db,
          org,
          es.parse({ name: "Todo", userId: `${prefix}-inapp` }),
        );
        profiles[`${prefix}-mail`] = await createProfile(
          database.db,
          org,
          es.parse({ name: "Todo por correo", userId: `${prefix}-mail`, email: "immediate" }),
        );
        profiles[`${prefix}-digest`] = await createProfile(
          database.db,
          org,
          es.parse({ name: "Resumen", userId: `${prefix}-digest`, email: "digest", digestHour: 8 }),
        );
        const group = await createProfile(
          database.db,
          org,
          es.parse({
            name: "Equipo",
            groupId: `${prefix}-team`,
            chatWebhookUrl: "https://hooks.slack.com/services/T/B/x",
          }),
        );
        // The chat URL points at the local receiver (the schema only admits Slack/Teams hosts).
        await database.rows(
          sql`update alert_profiles set chat_webhook_url = ${`${receiver.base}/chat/${prefix}`} where id = ${group.id}`,
        );
        await createWebhook(
          database.db,
          org,
          webhookInputSchema("es", { allowPrivate: true }).parse({ url: `${receiver.base}/hook/${prefix}` }),
        );
        await database.db
          .insert(organizationTopics)
          .values({ organizationId: org, name: "Interno", keywords: ["interno", "interna"], area: null });
      }

      // Each organisation's private feed, ingested as the feed job does; and one public document.
      const loadDocument = databaseDocuments(database);
      const stored: string[] = [];
      const onDocument = async (id: string) => {
        stored.push(id);
      };
      for (const [org, url] of [
        ["org-alfa", "https://alfa.example/private.rss"],
        ["org-beta", "https://beta.example/private.rss"],
      ] as const) {
        const [feed] = await database.db
          .insert(sourceFeeds)
          .values({ organizationId: org, url, name: `Privado ${org}` })
          .returning();
        await ingestFeed({ database, clients, log: silent, onDocument }, feed?.id ?? "");
      }
      stored.push(
        await insertStoredDocument(database, { title: "PUBLICO Real Decreto interno", text: "texto interno" }),
      );

      // Finding 2: the same guid in both feeds is two documents, neither rewritten by the other.
      const shared = await database.rows<{ title: string }>(
        sql`select title from documents where source = 'feed' and source_id = 'shared-1' order by title`,
      );
      expect(shared.map((row) => row.title)).toEqual(["ALFAPRIV aviso reservado", "BETAPRIV aviso reservado"]);
      expect(stored).toHaveLength(5);
      // Links other than http(s) are not stored.
      const links = await database.rows<{ official_url: string; record: string }>(
        sql`select official_url, record::text as record from documents where source = 'feed' and source_id in ('alfa-2', 'beta-2')`,
      );
      expect(links.map((row) => row.official_url)).toEqual(["", ""]);
      for (const row of links) expect(row.record).not.toMatch(/javascript:|data:text/);

      for (const id of stored) {
        await matchDocument(database, id, { loadDocument, directory });
        await matchDocumentTopics(database, id);
      }
      const worker = createDeliveryWorker({
        database,
        transport,
        mailFrom: "alerts@regwatch.example",
        siteUrl: "https://regwatch.example",
        settings: { retryBaseMs: 50, retryMaxMs: 100, httpTimeoutMs: 2000, allowPrivateUrls: true },
        log,
      });
      await worker.drain();
      // The digests of the day, at the digest hour the next morning.
      expect(
        await enqueueDueDigests(database, {
          directory,
          from: "alerts@regwatch.example",
          siteUrl: "https://x",
          now: nextDigestMoment(8),
        }),
      ).toBe(2);
      await worker.drain();
      await worker.stop();

      const own = { a: "ALFAPRIV", b: "BETAPRIV" } as const;
      const other = { a: "BETAPRIV", b: "ALFAPRIV" } as const;
      for (const prefix of ["a", "b"] as const) {
        // In-app: every user of the organisation has its own feed's two entries and the public one.
        for (const user of [`${prefix}-inapp`, `${prefix}-mail`, `${prefix}-digest`]) {
          const titles = (
            await database.rows<{ title: string }>(sql`select distinct title from alerts where user_id = ${user}`)
          ).map((row) => row.title);
          expect(titles.sort(), user).toEqual(
            [
              `${own[prefix]} aviso reservado`,
              `${own[prefix]} ${prefix === "a" ? "circular" : "nota"} interna`,
              "PUBLICO Real Decreto interno",
            ].sort(),
          );
        }
        // Mail, immediate and digest.
        const mails = sink.messages
          .filter((message) => message.to.some((to) => to.startsWith(`${prefix}-`)))
          .map((message) => decodeQuotedPrintable(message.raw));
        const digest = sink.messages.filter((message) =>
          message.to.includes(`${prefix}-digest@${prefix === "a" ? "alfa" : "beta"}.example`),
        );
        expect(digest).toHaveLength(1);
        expect(mails.length).toBe(4); // 3 immediate (one per document) + 1 digest
        expect(mails.join("\n")).toContain(own[prefix]);
        expect(mails.join("\n")).not.toContain(other[prefix]);
        // Chat and webhooks.
        for (const path of [`/chat/${prefix}`, `/hook/${prefix}`]) {
          const bodies = receiver.received.filter((request) => request.path === path).map((request) => request.body);
          expect(bodies, path).toHaveLength(3);
          expect(bodies.join("\n")).toContain(own[prefix]);
          expect(bodies.join("\n")).not.toContain(other[prefix]);
          expect(bodies.join("\n")).not.toMatch(/javascript:|data:text/);
        }
        // Profile preview ("try it on the last 30 days"), source feed.
        const organizationId = prefix === "a" ? "org-alfa" : "org-beta";
        const preview = await previewProfile(
          database,
          organizationId,
          es.parse({ name: "x", userId: "u", sources: ["feed"] }),
        );
        expect(preview.items.map((entry) => entry.document.title).sort()).toEqual(
          [`${own[prefix]} aviso reservado`, `${own[prefix]} ${prefix === "a" ? "circular" : "nota"} interna`].sort(),
        );
        // Search: items and facet counts.
        const search = await searchDocuments(database, { organizationId, q: "interno" });
        expect(search.items.map((hit) => hit.title).join("\n")).not.toContain(other[prefix]);
        expect(search.facets?.source).toEqual({ feed: 2, boe: 1 });
        // Organisation topics: matched and counted within reach.
        expect((await listTopics(database.db, organizationId)).map((topic) => topic.documents)).toEqual([3]);
        await rematchOrganisation(database, organizationId);
        expect((await listTopics(database.db, organizationId)).map((topic) => topic.documents)).toEqual([3]);
      }
      // Nothing sent anywhere else.
      expect(new Set(receiver.received.map((request) => request.path))).toEqual(
        new Set(["/chat/a", "/chat/b", "/hook/a", "/hook/b"]),
      );
    }, 120_000);
  });
}
