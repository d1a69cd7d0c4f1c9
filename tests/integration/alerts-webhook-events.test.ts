/**
 * Organisation events for webhooks (issue 24): any capability queues an event in its own
 * transaction with queueWebhookEvent; the delivery worker POSTs it signed (Standard Webhooks) to
 * the organisation's subscriptions that name its type, and to no other.
 */
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueWebhookEvent } from "../../app/.server/alerts/channels/webhook/index.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createWebhook, webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import { createDeliveryWorker } from "../../app/.server/alerts/worker.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport } from "../../app/.server/mail/transport.ts";
import { memoryDirectory, memoryDocuments, openMigrated, startReceiver } from "../support/alerts-fixtures.ts";
import { apiServicesFor, callApi, openApiChecker } from "../support/api-harness.ts";
import { issueToken } from "../support/api-tokens.ts";
import { databaseTargets } from "../support/postgres.ts";

const log = createLogger("silent");

for (const target of databaseTargets()) {
  describe(`organisation events on ${target.name}`, () => {
    let database: Database;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    const transport = createMailTransport({ dataDir: "/tmp", log });

    beforeAll(async () => {
      database = await openMigrated(await target.create());
      receiver = await startReceiver();
    }, 180_000); // a migration on a loaded 2-core machine
    afterAll(async () => {
      transport.close();
      await database?.close();
      await receiver?.stop();
      await target.cleanup();
    });

    async function drain(): Promise<number> {
      const worker = createDeliveryWorker({
        database,
        transport,
        mailFrom: "alerts@regwatch.example",
        siteUrl: "https://regwatch.example",
        settings: { retryBaseMs: 50, retryMaxMs: 100, httpTimeoutMs: 2000, allowPrivateUrls: true },
        log,
      });
      try {
        return await worker.drain();
      } finally {
        await worker.stop();
      }
    }

    const input = (body: Record<string, unknown>) => webhookInputSchema("en", { allowPrivate: true }).parse(body);

    it("sends a document.triaged event, signed, only to the subscriptions that name it", async () => {
      const triage = await createWebhook(
        database.db,
        "org-a",
        input({ url: `${receiver.base}/a/triage`, events: ["document.triaged", "document.matched"] }),
      );
      const matchedOnly = await createWebhook(database.db, "org-a", input({ url: `${receiver.base}/a/matched` }));
      expect(matchedOnly.events).toEqual(["document.matched"]);
      const otherOrg = await createWebhook(
        database.db,
        "org-b",
        input({ url: `${receiver.base}/b/triage`, events: ["document.triaged"] }),
      );
      expect(otherOrg.events).toEqual(["document.triaged"]);

      const event = {
        organisationId: "org-a",
        type: "document.triaged" as const,
        data: { documentId: "3f1c0d8e-0000-4000-8000-000000000001", status: "applies", webhookId: "spoofed" },
        key: "triage-1",
      };
      const queued = await database.db.transaction((tx) => queueWebhookEvent(tx, event));
      expect(queued).toBe(1);
      // The same event again (a retried transaction): queued once.
      expect(await database.db.transaction((tx) => queueWebhookEvent(tx, event))).toBe(0);

      expect(await drain()).toBe(1);
      const got = receiver.received.filter((r) => r.path.startsWith("/a/") || r.path.startsWith("/b/"));
      expect(got.map((r) => r.path)).toEqual(["/a/triage"]);
      const [delivery] = await database.rows<{ id: string }>(
        sql`select id from deliveries where channel = 'webhook' and recipient = ${triage.id}`,
      );
      expect(got[0]?.headers["webhook-id"]).toBe(delivery?.id);
      const verified = new Webhook(triage.secret).verify(got[0]?.body ?? "", got[0]?.headers as Record<string, string>);
      expect(verified).toMatchObject({
        type: "document.triaged",
        data: { webhookId: triage.id, documentId: event.data.documentId, status: "applies" },
      });
      expect(() =>
        new Webhook(matchedOnly.secret).verify(got[0]?.body ?? "", got[0]?.headers as Record<string, string>),
      ).toThrow();
    });

    it("stores nothing when the caller's transaction rolls back, and refuses unknown types", async () => {
      await createWebhook(
        database.db,
        "org-c",
        input({ url: `${receiver.base}/c/in`, events: ["obligation.created"] }),
      );
      await expect(
        database.db.transaction(async (tx) => {
          expect(
            await queueWebhookEvent(tx, { organisationId: "org-c", type: "obligation.created", data: { id: "o1" } }),
          ).toBe(1);
          throw new Error("the obligation was not stored after all");
        }),
      ).rejects.toThrow("not stored");
      const [left] = await database.rows<{ n: number }>(
        sql`select count(*)::int as n from deliveries where organization_id = 'org-c'`,
      );
      expect(left?.n).toBe(0);
      await expect(
        queueWebhookEvent(database.db, {
          organisationId: "org-c",
          type: "obligation.deleted" as "obligation.created",
          data: {},
        }),
      ).rejects.toThrow("unknown webhook event type");
    });

    it("does not send document.matched to a subscription that did not name it", async () => {
      const documents = memoryDocuments();
      const directory = memoryDirectory([], {});
      await createWebhook(database.db, "org-d", input({ url: `${receiver.base}/d/laws`, events: ["law.changed"] }));
      await createWebhook(database.db, "org-d", input({ url: `${receiver.base}/d/docs` }));
      const doc = documents.add();
      const result = await matchDocument(database, doc.id, { loadDocument: documents.load, directory });
      expect(result.deliveries).toBeGreaterThanOrEqual(1);
      await drain();
      const paths = receiver.received.filter((r) => r.path.startsWith("/d/")).map((r) => r.path);
      expect(paths).toEqual(["/d/docs"]);
    });

    it("takes events through POST /api/v1/webhooks, answers them as OpenAPI declares, and delivers them", async () => {
      const api = await apiServicesFor(database, 600, { allowPrivateUrls: true });
      const { token } = await issueToken(database, { organizationId: "org-api", scope: "admin" });
      const checker = openApiChecker(
        (await (await callApi(api, "/api/v1/openapi.json")).json()) as Record<string, unknown>,
      );
      const post = (body: unknown, lang = "en") =>
        callApi(api, "/api/v1/webhooks", {
          token,
          method: "POST",
          headers: { "content-type": "application/json", "accept-language": lang },
          body: JSON.stringify(body),
        });
      const created = await post({ url: `${receiver.base}/api/obligations`, events: ["obligation.updated"] });
      expect(created.status).toBe(201);
      const hook = (await created.json()) as { id: string; secret: string; events: string[] };
      expect(hook.events).toEqual(["obligation.updated"]);
      expect(checker.check("/api/v1/webhooks", "post", 201, hook)).toEqual([]);
      const plain = (await (await post({ url: `${receiver.base}/api/plain` })).json()) as { events: string[] };
      expect(plain.events).toEqual(["document.matched"]);
      const listed = await (await callApi(api, "/api/v1/webhooks", { token })).json();
      expect(checker.check("/api/v1/webhooks", "get", 200, listed)).toEqual([]);
      const refused = await post({ url: `${receiver.base}/api/x`, events: ["obligation.deleted"] }, "es");
      expect(refused.status).toBe(422);
      const body = (await refused.json()) as { fieldErrors?: Record<string, string[]> };
      expect(checker.check("/api/v1/webhooks", "post", 422, body)).toEqual([]);
      expect(JSON.stringify(body.fieldErrors)).toContain("Eventos no válidos");

      await database.db.transaction((tx) =>
        queueWebhookEvent(tx, { organisationId: "org-api", type: "obligation.updated", data: { id: "ob-1" } }),
      );
      await drain();
      const got = receiver.received.filter((r) => r.path.startsWith("/api/"));
      expect(got.map((r) => r.path)).toEqual(["/api/obligations"]);
      expect(
        new Webhook(hook.secret).verify(got[0]?.body ?? "", got[0]?.headers as Record<string, string>),
      ).toMatchObject({
        type: "obligation.updated",
        data: { webhookId: hook.id, id: "ob-1" },
      });
    });

    it("takes events as a validated list, with errors in the user's language", async () => {
      const es = await webhookInputSchema("es", { allowPrivate: true }).safeParseAsync({
        url: `${receiver.base}/x`,
        events: ["document.deleted"],
      });
      expect(es.success).toBe(false);
      expect(es.error?.issues[0]?.message).toMatch(/^Eventos no válidos: elige al menos uno/);
      const empty = await webhookInputSchema("en", { allowPrivate: true }).safeParseAsync({
        url: `${receiver.base}/x`,
        events: [],
      });
      expect(empty.error?.issues[0]?.message).toMatch(/^Invalid events/);
      const twice = await createWebhook(
        database.db,
        "org-e",
        input({ url: `${receiver.base}/x`, events: ["law.changed", "law.changed"] }),
      );
      expect(twice.events).toEqual(["law.changed"]);
    });
  });
}
