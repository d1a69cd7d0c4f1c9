/**
 * Alerts on a recorded day (issue 13, done-when): the BOE day 2018-12-06 and the EUR-Lex feed are
 * ingested from the replay server with the real classifier; profiles are created as users would;
 * every stored document is matched as the ingestion hook does; the delivery worker sends through a
 * real SMTP peer and a real HTTP receiver standing in for Slack. Only the profiles whose filters a
 * document meets get it, on each of their channels, once.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { unreadCount } from "../../app/.server/alerts/inbox.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createProfile, profileInputSchema } from "../../app/.server/alerts/profiles.ts";
import { createDeliveryWorker } from "../../app/.server/alerts/worker.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport, type MailTransport } from "../../app/.server/mail/transport.ts";
import { memoryDirectory, startReceiver } from "../support/alerts-fixtures.ts";
import { ingestRecorded } from "../support/documents-fixtures.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";

const log = createLogger("silent");

describe("alerts on a recorded day", () => {
  let database: Database;
  let sink: SmtpSink;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let transport: MailTransport;
  let ids: Map<string, string>;
  const directory = memoryDirectory(
    [
      { userId: "ana", email: "ana@example.com", language: "es" },
      { userId: "bob", email: "bob@example.com", language: "en" },
      { userId: "cai", email: "cai@example.com", language: "en" },
    ],
    { privacy: ["ana", "cai"] },
  );

  beforeAll(async () => {
    database = await openMigratedDatabase();
    ids = await ingestRecorded(database, ["2018-12-06"]);
    sink = await startSmtpSink();
    receiver = await startReceiver();
    transport = createMailTransport({ smtpUrl: sink.url, dataDir: "/tmp", log });
  }, 180_000);
  afterAll(async () => {
    transport?.close();
    await database?.close();
    await sink?.stop();
    await receiver?.stop();
  });

  it("sends each matching document to the right users only, in-app, by email and to the group's chat", async () => {
    const es = profileInputSchema("es");
    // Ana: data protection, immediately by email. Bob: EU regulations only, in-app. The privacy
    // group (Ana and Cai): high-relevance data protection, to its Slack channel.
    const ana = await createProfile(
      database.db,
      "org1",
      es.parse({ name: "Datos", userId: "ana", areas: ["data-protection"], email: "immediate" }),
    );
    const bob = await createProfile(
      database.db,
      "org1",
      es.parse({ name: "EU regulations", userId: "bob", kinds: ["regulation"], jurisdictions: ["EU"] }),
    );
    const group = await createProfile(
      database.db,
      "org1",
      es.parse({
        name: "Privacidad",
        groupId: "privacy",
        areas: ["data-protection"],
        minRelevance: "high",
        chatWebhookUrl: "https://hooks.slack.com/services/T/B/x",
      }),
    );
    await database.rows(
      sql`update alert_profiles set chat_webhook_url = ${`${receiver.base}/slack/privacy`} where id = ${group.id}`,
    );

    // What the filters should pick, from the stored labels (the classifier's, not the test's).
    const stored = await database.rows<{
      id: string;
      source_id: string;
      kind: string;
      jurisdiction: string;
      relevance: string;
      area_ids: string[];
    }>(sql`select id::text, source_id, kind, jurisdiction, relevance, area_ids from documents`);
    const dataProtection = stored.filter((doc) => doc.area_ids.includes("data-protection"));
    const euRegulations = stored.filter((doc) => doc.kind === "regulation" && doc.jurisdiction === "EU");
    const highDataProtection = dataProtection.filter((doc) => doc.relevance === "high");
    expect(dataProtection.map((doc) => doc.source_id)).toEqual(
      expect.arrayContaining(["BOE-A-2018-16673", "32016R0679"]),
    );
    expect(euRegulations.length).toBeGreaterThan(0);
    expect(stored.length).toBeGreaterThan(dataProtection.length + euRegulations.length);

    // The ingestion hook's work: every stored document matched once.
    const loadDocument = databaseDocuments(database);
    for (const doc of stored) await matchDocument(database, doc.id, { loadDocument, directory });
    const worker = createDeliveryWorker({
      database,
      transport,
      mailFrom: "alerts@regwatch.example",
      siteUrl: "https://regwatch.example",
      settings: { retryBaseMs: 50, retryMaxMs: 100, httpTimeoutMs: 2000, allowPrivateUrls: true },
      log,
    });
    await worker.drain();
    await worker.stop();

    const alertsOf = async (userId: string) =>
      (
        await database.rows<{ document_id: string; profile_id: string }>(
          sql`select document_id::text, profile_id::text from alerts where user_id = ${userId}`,
        )
      ).map((row) => `${row.profile_id}:${row.document_id}`);
    const expectedFor = (profileId: string, docs: { id: string }[]) => docs.map((doc) => `${profileId}:${doc.id}`);
    expect((await alertsOf("ana")).sort()).toEqual(
      [...expectedFor(ana.id, dataProtection), ...expectedFor(group.id, highDataProtection)].sort(),
    );
    expect((await alertsOf("bob")).sort()).toEqual(expectedFor(bob.id, euRegulations).sort());
    expect((await alertsOf("cai")).sort()).toEqual(expectedFor(group.id, highDataProtection).sort());
    expect(await unreadCount(database.db, "bob")).toBe(euRegulations.length);

    // Email: Ana's immediate profile only, one mail per document.
    await expect.poll(() => sink.messages.length, { timeout: 10_000 }).toBe(dataProtection.length);
    expect(new Set(sink.messages.flatMap((message) => message.to))).toEqual(new Set(["ana@example.com"]));
    // Chat: the group's channel, one message per high-relevance data-protection document.
    const chats = receiver.received.filter((request) => request.path === "/slack/privacy");
    expect(chats).toHaveLength(highDataProtection.length);
    expect(chats.some((chat) => chat.body.includes(ids.get("BOE-A-2018-16673") ?? "missing"))).toBe(true);

    // Matching again (a restart, a second instance) sends nothing more.
    for (const doc of stored) {
      expect(await matchDocument(database, doc.id, { loadDocument, directory })).toMatchObject({ deliveries: 0 });
    }
  }, 120_000);
});
