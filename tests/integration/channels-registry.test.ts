/**
 * "Add a channel" (docs/channels.md), shown: a channel registered in alerts/channels/index.ts is
 * asked by matching for its deliveries, found by the delivery worker for its rows (payload parsed
 * by its schema, a row that does not parse is dead at once), and every kind the registry sends has
 * a label on the admins' failed-deliveries page in both languages. Webhook event types: one list
 * feeds the API's input schema and the OpenAPI enum.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { deliveryKinds, registerChannel, registeredChannels } from "../../app/.server/alerts/channels/index.ts";
import { deliveryKind } from "../../app/.server/alerts/channels/types.ts";
import { webhookEventTypes } from "../../app/.server/alerts/channels/webhook/events.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createProfile, profileInputSchema } from "../../app/.server/alerts/profiles.ts";
import { webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import { createDeliveryWorker } from "../../app/.server/alerts/worker.ts";
import { openApiDocument } from "../../app/.server/api/openapi-document.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport } from "../../app/.server/mail/transport.ts";
import { alerts as enAlerts } from "../../app/i18n/en/alerts.ts";
import { alerts as esAlerts } from "../../app/i18n/es/alerts.ts";
import { memoryDirectory, memoryDocuments, openMigrated } from "../support/alerts-fixtures.ts";

const log = createLogger("silent");

describe("the channel registry", () => {
  let database: Database;
  const transport = createMailTransport({ dataDir: "/tmp", log });
  beforeAll(async () => {
    database = await openMigrated(undefined);
  }, 180_000); // a PGlite migration on a loaded 2-core machine
  afterAll(async () => {
    transport.close();
    await database?.close();
  });

  async function drain(): Promise<number> {
    const worker = createDeliveryWorker({
      database,
      transport,
      mailFrom: "alerts@vigia.example",
      siteUrl: "https://vigia.example",
      settings: { retryBaseMs: 50, retryMaxMs: 100 },
      log,
    });
    try {
      return await worker.drain();
    } finally {
      await worker.stop();
    }
  }

  it("holds the six channels, and every kind they send has a label in es and en", () => {
    expect(registeredChannels().map((c) => c.id)).toEqual(["in-app", "mail", "digest", "slack", "teams", "webhook"]);
    const kinds = deliveryKinds();
    expect(kinds.sort()).toEqual(["chat", "email", "inapp", "mail", "webhook"]);
    for (const labels of [esAlerts.deliveries.channels, enAlerts.deliveries.channels])
      expect(kinds.filter((kind) => !(kind in labels))).toEqual([]);
  });

  it("asks a newly registered channel for its deliveries and sends them through it", async () => {
    const sent: { payload: { documentId: string; title: string; pager: string }; deliveryId: string }[] = [];
    const unregister = registerChannel({
      id: "pager",
      prepare: (match) =>
        match.profile.name.startsWith("Guardia")
          ? match.recipients.map((r) => ({
              kind: "pager",
              recipient: r.userId,
              payload: { documentId: match.documentId, title: match.document.title, pager: `+34 600 ${r.userId}` },
            }))
          : [],
      deliveries: [
        deliveryKind({
          kind: "pager",
          payload: z.object({ documentId: z.string(), title: z.string(), pager: z.string() }),
          async send(payload, _ctx, delivery) {
            sent.push({ payload, deliveryId: delivery.id });
            return "sent";
          },
        }),
      ],
    });
    try {
      expect(deliveryKinds()).toContain("pager");
      const directory = memoryDirectory([{ userId: "ana", email: "ana@example.com", language: "es" }], {});
      const documents = memoryDocuments();
      const es = profileInputSchema("es");
      await createProfile(database.db, "org-p", es.parse({ name: "Guardia AML", userId: "ana", areas: ["aml"] }));
      await createProfile(database.db, "org-p", es.parse({ name: "Otro", userId: "ana", areas: ["aml"] }));
      const doc = documents.add({ title: "Orden de guardia" });
      const result = await matchDocument(database, doc.id, { loadDocument: documents.load, directory });
      expect(result).toMatchObject({ newMatches: 2, deliveries: 3 }); // two in-app, one pager
      expect(await drain()).toBe(3);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.payload).toEqual({ documentId: doc.id, title: "Orden de guardia", pager: "+34 600 ana" });
      const [row] = await database.rows<{ id: string; status: string }>(
        sql`select id, status from deliveries where channel = 'pager'`,
      );
      expect(row).toEqual({ id: sent[0]?.deliveryId, status: "sent" });

      // A stored row its schema does not accept is dead at once, with the reason.
      await database.rows(sql`
        insert into deliveries (id, match_key, channel, recipient, organization_id, payload)
        values (gen_random_uuid(), 'test:bad', 'pager', 'ana', 'org-p', '{"documentId": 7}'::jsonb)`);
      await drain();
      const [bad] = await database.rows<{ status: string; last_error: string }>(
        sql`select status, last_error from deliveries where match_key = 'test:bad'`,
      );
      expect(bad).toEqual({ status: "dead", last_error: "payload does not fit channel pager" });
    } finally {
      unregister();
    }
    expect(deliveryKinds()).not.toContain("pager");
    await database.rows(sql`
      insert into deliveries (id, match_key, channel, recipient, organization_id, payload)
      values (gen_random_uuid(), 'test:gone', 'pager', 'ana', 'org-p', '{}'::jsonb)`);
    await drain();
    const [gone] = await database.rows<{ status: string; last_error: string }>(
      sql`select status, last_error from deliveries where match_key = 'test:gone'`,
    );
    expect(gone).toEqual({ status: "dead", last_error: "unknown channel pager" });
  });

  it("offers every webhook event type in the API's input and in OpenAPI", async () => {
    const document = openApiDocument("https://vigia.example") as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    };
    const body = document.paths["/api/v1/webhooks"]?.post?.requestBody?.content["application/json"]?.schema as {
      properties: { events: { items: { enum: string[] }; default: string[] } };
    };
    expect(body.properties.events.items.enum).toEqual(webhookEventTypes);
    expect(body.properties.events.default).toEqual(["document.matched"]);
    for (const type of webhookEventTypes)
      expect(
        webhookInputSchema("en", { allowPrivate: true }).parse({ url: "http://127.0.0.1/x", events: [type] }).events,
      ).toEqual([type]);
  });
});
