/** Matching and delivery with real parts: PGlite and PostgreSQL, the SMTP sink, an HTTP receiver on loopback. */
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDigest, enqueueDueDigests } from "../../app/.server/alerts/channels/digest/index.ts";
import { markDocumentAlertsRead, unreadCount } from "../../app/.server/alerts/inbox.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createProfile, profileInputSchema } from "../../app/.server/alerts/profiles.ts";
import { createWebhook, webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import {
  createDeliveryWorker,
  deleteSentDeliveries,
  failedDeliveries,
  retryDeadDeliveries,
} from "../../app/.server/alerts/worker.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport, type MailTransport } from "../../app/.server/mail/transport.ts";
import { memoryDirectory, memoryDocuments, openMigrated, startReceiver } from "../support/alerts-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";

const log = createLogger("silent");

function decodeQuotedPrintable(raw: string): string {
  const soft = raw.replace(/=\r?\n/g, "");
  return Buffer.from(
    soft.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");
}
const siteUrl = "https://regwatch.example";

for (const target of databaseTargets()) {
  describe(`alerts delivery on ${target.name}`, () => {
    let database: Database;
    let sink: SmtpSink;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    const directory = memoryDirectory(
      [
        { userId: "ana", email: "ana@example.com", language: "es" },
        { userId: "bob", email: "bob@example.com", language: "en" },
        { userId: "cai", email: "cai@example.com", language: "en" },
        { userId: "dan", email: "dan@example.com", language: "es" },
      ],
      { compliance: ["ana", "cai"] },
    );
    const documents = memoryDocuments();

    beforeAll(async () => {
      database = await openMigrated(await target.create());
      sink = await startSmtpSink();
      receiver = await startReceiver();
    });
    afterAll(async () => {
      for (const transport of transports) transport.close();
      await database?.close();
      await sink?.stop();
      await receiver?.stop();
      await target.cleanup();
    });

    const transports: MailTransport[] = [];
    function worker(retryBaseMs = 50) {
      const transport = createMailTransport({ smtpUrl: sink.url, dataDir: "/tmp", log });
      transports.push(transport);
      return createDeliveryWorker({
        database,
        transport,
        mailFrom: "alerts@regwatch.example",
        siteUrl,
        settings: { retryBaseMs, retryMaxMs: retryBaseMs * 2, httpTimeoutMs: 2000, allowPrivateUrls: true },
        log,
      });
    }

    it("delivers to the right users only, once, on every channel", async () => {
      const es = profileInputSchema("es");
      const anaProfile = await createProfile(
        database.db,
        "org1",
        es.parse({ name: "Blanqueo", userId: "ana", areas: ["aml"], keywords: ["blanqueo"], email: "immediate" }),
      );
      await createProfile(
        database.db,
        "org1",
        es.parse({ name: "Fiscal", userId: "bob", areas: ["tax"], email: "immediate" }),
      );
      const groupProfile = await createProfile(
        database.db,
        "org1",
        es.parse({
          name: "Equipo <AML>",
          groupId: "compliance",
          minRelevance: "medium",
          chatWebhookUrl: "https://hooks.slack.com/services/T/B/x",
          language: "en",
        }),
      );
      // The chat URL points at the local receiver (the schema only admits Slack/Teams hosts).
      await database.rows(
        sql`update alert_profiles set chat_webhook_url = ${`${receiver.base}/slack/hook`} where id = ${groupProfile.id}`,
      );
      await createProfile(
        database.db,
        "org1",
        es.parse({ name: "Silenciado", userId: "dan", areas: ["aml"], muted: true, email: "immediate" }),
      );
      await createProfile(database.db, "org1", es.parse({ name: "Bajo", userId: "dan", kinds: ["law"] }));

      // The classifier's evidence, in both languages, as the stored labels carry it.
      const labels: Array<{ id: string; score: number; reasons: string[]; explanations: unknown[] }> = [
        {
          id: "aml",
          score: 0.9,
          reasons: ["Palabra clave en el título: «blanqueo de capitales»"],
          explanations: [
            {
              es: "Palabra clave en el título: «blanqueo de capitales»",
              en: "Keyword in the title: «blanqueo de capitales»",
            },
          ],
        },
      ];
      const doc = documents.add({ areas: labels });
      // Two instances match the same document at once: one set of matches and deliveries.
      const [first, second] = await Promise.all([
        matchDocument(database, doc.id, { loadDocument: documents.load, directory }),
        matchDocument(database, doc.id, { loadDocument: documents.load, directory }),
      ]);
      expect(first.newMatches + second.newMatches).toBe(2);
      expect(first.deliveries + second.deliveries).toBe(5); // ana inapp+email, group: ana+cai inapp, chat
      const again = await matchDocument(database, doc.id, { loadDocument: documents.load, directory });
      expect(again).toMatchObject({ matched: 2, newMatches: 0, deliveries: 0 });

      // Two workers drain at once: every delivery sent once.
      const w1 = worker();
      const w2 = worker();
      const handled = (await Promise.all([w1.drain(), w2.drain()])).reduce((a, b) => a + b, 0);
      expect(handled).toBe(5);
      await Promise.all([w1.stop(), w2.stop()]);

      const alerts = await database.rows<{ user_id: string; profile_id: string }>(
        sql`select user_id, profile_id from alerts where document_id = ${doc.id} order by user_id, profile_id`,
      );
      expect(alerts.map((a) => a.user_id).sort()).toEqual(["ana", "ana", "cai"]);
      // Why each matched is kept with the match and with the alert (decision 0148).
      const [anaAlert] = await database.rows<{ why: unknown }>(
        sql`select why from alerts where document_id = ${doc.id} and profile_id = ${anaProfile.id}`,
      );
      expect(anaAlert?.why).toMatchObject({
        via: "profile",
        profile: { id: anaProfile.id, name: "Blanqueo", group: false },
        areas: [{ id: "aml", evidence: [{ en: "Keyword in the title: «blanqueo de capitales»" }] }],
        terms: ["blanqueo"],
      });
      const [match] = await database.rows<{ reasons: unknown }>(
        sql`select reasons from alert_matches where document_id = ${doc.id} and profile_id = ${anaProfile.id}`,
      );
      expect(match?.reasons).toEqual(anaAlert?.why);
      expect(await unreadCount(database.db, "ana")).toBe(2);
      expect(await unreadCount(database.db, "bob")).toBe(0);
      expect(await unreadCount(database.db, "dan")).toBe(0);

      await expect.poll(() => sink.messages.length).toBe(1);
      const mail = sink.messages[0];
      const decoded = decodeQuotedPrintable(mail?.raw ?? "");
      expect(mail?.to).toEqual(["ana@example.com"]);
      expect(decoded).toContain(`${siteUrl}/app/documents/${doc.id}`);
      expect(decoded).toContain(`${siteUrl}/app/profiles/${anaProfile.id}`);
      const anaWhy =
        "Coincide con tu perfil «Blanqueo»: área Prevención del blanqueo (palabra clave en el título: «blanqueo de capitales»); términos: «blanqueo»";
      expect(decoded).toContain(anaWhy);

      const chats = receiver.received.filter((r) => r.path === "/slack/hook");
      expect(chats).toHaveLength(1);
      const slack = JSON.parse(chats[0]?.body ?? "{}") as { text: string; blocks: unknown[] };
      expect(slack.text).toContain("New document for “Equipo &lt;AML&gt;”");
      expect(slack.blocks.length).toBeGreaterThan(0);
      // The group profile asks for medium relevance or more: that is why, in the profile's language.
      expect(slack.text).toContain("Matches the group profile “Equipo &lt;AML&gt;”: high relevance");
      expect(JSON.stringify(slack.blocks)).toContain("Matches the group profile “Equipo <AML>”: high relevance");

      expect(await markDocumentAlertsRead(database.db, "ana", doc.id)).toBe(2);
      expect(await unreadCount(database.db, "ana")).toBe(0);

      // The digest: ana's two digest profiles matched the document; it is listed once.
      await database.rows(
        sql`update alert_profiles set email_mode = 'digest' where id in (${anaProfile.id}, ${groupProfile.id})`,
      );
      const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(new Date());
      const digest = await buildDigest(database, { userId: "ana", email: "ana@example.com", language: "es" }, today, {
        from: "alerts@regwatch.example",
        siteUrl,
      });
      expect(digest?.text.match(/Real Decreto de prevención/g)).toHaveLength(1);
      expect(digest?.text).toContain("Blanqueo");
      expect(digest?.text).toContain("Equipo <AML>");
      expect(digest?.html).toContain("Equipo &#60;AML&#62;");
      expect(digest?.subject).toMatch(/1 documento$/);
      expect(digest?.text).toContain(`Por qué: ${anaWhy}`);
      expect(digest?.text).toContain("Por qué: Coincide con el perfil de grupo «Equipo <AML>»: relevancia alta");
      expect(
        await buildDigest(database, { userId: "bob", email: "bob@example.com", language: "en" }, today, {
          from: "a@x.example",
          siteUrl,
        }),
      ).toBeUndefined();

      // Due tomorrow at 08:00 Madrid (the profiles' hour): one digest each for ana and cai, once however often it runs.
      // The first 08:00 after today, whatever the hour the test runs at (starting 12 h ahead skipped
      // tomorrow's 08:00 when run after 20:00 Madrid, and the digest then covered an empty day).
      let tomorrowAtEight = Date.now();
      const madridHour = (t: number) =>
        Number(
          new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Madrid", hour: "2-digit", hourCycle: "h23" }).format(t),
        );
      const madridDay = (t: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(t);
      while (!(madridHour(tomorrowAtEight) === 8 && madridDay(tomorrowAtEight) > today))
        tomorrowAtEight += 3600_000 / 4;
      const options = { directory, from: "alerts@regwatch.example", siteUrl, now: new Date(tomorrowAtEight) };
      expect(await enqueueDueDigests(database, { ...options, now: new Date(tomorrowAtEight - 2 * 3600_000) })).toBe(0);
      const [stored, storedAgain] = await Promise.all([
        enqueueDueDigests(database, options),
        enqueueDueDigests(database, options),
      ]);
      expect(stored + storedAgain).toBe(2);
      const w3 = worker();
      expect(await w3.drain()).toBe(2);
      await w3.stop();
      await expect.poll(() => sink.messages.length).toBe(3);
      const digestMail = decodeQuotedPrintable(sink.messages.find((m) => m.to.includes("cai@example.com"))?.raw ?? "");
      expect(digestMail).toContain("Digest for");
      expect(digestMail.match(/Real Decreto de prevención del blanqueo de capitales<\/a>/g)).toHaveLength(1);
      // cai reads English: the same stored why, in cai's words.
      expect(digestMail).toContain("Matches the group profile “Equipo &#60;AML&#62;”: high relevance");
    });

    it("signs webhooks with Standard Webhooks and retries a failing receiver", async () => {
      const input = webhookInputSchema("en", { allowPrivate: true }).parse({
        url: `${receiver.base}/hooks/in`,
        areas: ["aml"],
        minRelevance: "high",
      });
      const hook = await createWebhook(database.db, "org2", input);
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{40,}={0,2}$/);
      const doc = documents.add({ title: "Orden sobre blanqueo" });
      documents.add({ relevance: "low" });
      await matchDocument(database, doc.id, { loadDocument: documents.load, directory });

      receiver.failNext(1, "/hooks/");
      const w = worker(60_000);
      await w.drain();
      const failed = await failedDeliveries(database, "org2");
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ channel: "webhook", status: "pending", attempts: 1 });
      expect(failed[0]?.lastError).toContain("HTTP 500");
      // Backed off (25–60 s with jitter), not retried at once.
      const [due] = await database.rows<{ wait: number }>(
        sql`select extract(epoch from next_attempt_at - now())::float8 as wait from deliveries where id = ${failed[0]?.id}`,
      );
      expect(due?.wait).toBeGreaterThan(20);
      expect(await w.drain()).toBe(0);
      await database.rows(sql`update deliveries set next_attempt_at = now() where id = ${failed[0]?.id}`);
      expect(await w.drain()).toBe(1);
      await w.stop();
      const got = receiver.received.filter((r) => r.path === "/hooks/in");
      expect(got).toHaveLength(1);
      const verified = new Webhook(hook.secret).verify(
        got[0]?.body ?? "",
        got[0]?.headers as Record<string, string>,
      ) as {
        type: string;
        data: { webhookId: string; document: { id: string } };
      };
      expect(verified.type).toBe("document.matched");
      expect(verified.data).toMatchObject({ webhookId: hook.id, document: { id: doc.id } });
      // Why the subscription got it (decision 0148): its filters that the document met, signed with the rest.
      expect((verified.data as unknown as { why: unknown }).why).toEqual({
        via: "webhook",
        areas: [
          {
            id: "aml",
            name: { es: "Prevención del blanqueo", en: "Anti-money laundering" },
            evidence: [{ es: "test", en: "test" }],
          },
        ],
        terms: [],
        filters: { relevance: "high" },
        text: {
          es: "Coincide con los filtros de esta suscripción: área Prevención del blanqueo (test); relevancia alta",
          en: "Matches this subscription's filters: area Anti-money laundering (test); high relevance",
        },
      });
      expect(got[0]?.headers["webhook-signature"]).toMatch(/^v1,/);
      expect(() =>
        new Webhook(hook.secret).verify(`${got[0]?.body} `, got[0]?.headers as Record<string, string>),
      ).toThrow();
      expect(await failedDeliveries(database, "org2")).toHaveLength(0);
    });

    it("never posts to a private address unless allowed", async () => {
      const hook = await createWebhook(
        database.db,
        "org3",
        webhookInputSchema("en", { allowPrivate: true }).parse({
          url: `${receiver.base}/private/in`,
          kinds: ["decree"],
        }),
      );
      const doc = documents.add({ kind: "decree", areas: [{ id: "energy" }] });
      await matchDocument(database, doc.id, { loadDocument: documents.load, directory });
      const transport = createMailTransport({ dataDir: "/tmp", log });
      const strict = createDeliveryWorker({ database, transport, mailFrom: "a@example.com", siteUrl, log });
      await strict.drain();
      await strict.stop();
      const [dead] = await failedDeliveries(database, "org3");
      expect(dead).toMatchObject({ channel: "webhook", recipient: hook.id, status: "dead", attempts: 1 });
      expect(dead?.lastError).toBe("refused: 127.0.0.1 is not a public address (loopback)");
      expect(receiver.received.filter((r) => r.path === "/private/in")).toHaveLength(0);

      // An admin queues it again; another organisation cannot.
      expect(await retryDeadDeliveries(database, "org1", [dead?.id ?? ""])).toBe(0);
      expect(await retryDeadDeliveries(database, "org3", [dead?.id ?? "", "junk"])).toBe(1);
      const allowed = worker();
      await allowed.drain();
      await allowed.stop();
      expect(receiver.received.filter((r) => r.path === "/private/in")).toHaveLength(1);
      expect(await failedDeliveries(database, "org3")).toHaveLength(0);
      expect(await deleteSentDeliveries(database, 0)).toBeGreaterThan(0);
      const [left] = await database.rows<{ n: number }>(
        sql`select count(*)::int as n from deliveries where status = 'sent'`,
      );
      expect(left?.n).toBe(0);
    });

    it("refuses bad webhook input with fieldErrors (async: the URL's name is resolved)", async () => {
      const result = await webhookInputSchema("es").safeParseAsync({
        url: "http://127.0.0.1:9/x",
        areas: ["nope"],
        kinds: ["law"],
      });
      expect(result.success).toBe(false);
      const fields = result.error?.flatten().fieldErrors as Record<string, string[]>;
      expect(fields.url?.[0]).toBe("La URL debe ser http(s) y pública.");
      expect(fields.areas?.[0]).toBe("Área desconocida.");
      expect((await webhookInputSchema("en").safeParseAsync({ url: "ftp://example.com/x" })).success).toBe(false);
      expect((await webhookInputSchema("en").safeParseAsync({ url: "https://[::1]/x" })).success).toBe(false);
      expect((await webhookInputSchema("en").safeParseAsync({ url: "https://10.1.2.3/x" })).success).toBe(false);
      expect((await webhookInputSchema("en").safeParseAsync({ url: "https://example.com/x" })).success).toBe(true);
    });
  });
}
