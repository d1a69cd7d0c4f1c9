/** Real time: SSE replay from Last-Event-ID and live alerts, in process on PGlite and across two instances on PostgreSQL. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertEventsResponse, createAlertHub } from "../../app/.server/alerts/events.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createProfile, profileInputSchema } from "../../app/.server/alerts/profiles.ts";
import { createDeliveryWorker } from "../../app/.server/alerts/worker.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport } from "../../app/.server/mail/transport.ts";
import { memoryDirectory, memoryDocuments, openMigrated, readSse } from "../support/alerts-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";

const log = createLogger("silent");

/** The SSE body of an events answer, read as a page would (tests/support/alerts-fixtures.ts). */
const sseReader = (response: Response) => readSse(response.body as ReadableStream<Uint8Array>);

for (const target of databaseTargets()) {
  describe(`alert events on ${target.name}`, () => {
    let a: Database;
    let b: Database;
    let url: string | undefined;
    const documents = memoryDocuments();
    const directory = memoryDirectory([{ userId: "ana", email: "ana@example.com", language: "es" }], {});

    beforeAll(async () => {
      url = await target.create();
      a = await openMigrated(url);
      // Two instances on PostgreSQL; PGlite is one process, so the same database.
      b = url ? await openMigrated(url) : a;
    });
    afterAll(async () => {
      if (b !== a) await b?.close();
      await a?.close();
      await target.cleanup();
    });

    async function deliverOne(title: string) {
      const doc = documents.add({ title });
      await matchDocument(a, doc.id, { loadDocument: documents.load, directory });
      const transport = createMailTransport({ dataDir: "/tmp", log });
      const worker = createDeliveryWorker({
        database: a,
        transport,
        mailFrom: "a@example.com",
        siteUrl: "https://x.example",
        log,
      });
      await worker.drain();
      await worker.stop();
      return doc;
    }

    it("replays what a page missed, then pushes live alerts from another instance", async () => {
      await createProfile(
        a.db,
        "org1",
        profileInputSchema("en").parse({ name: "All AML", userId: "ana", areas: ["aml"] }),
      );
      const hubA = await createAlertHub(a, { databaseUrl: url, log });
      const hubB = await createAlertHub(b, { databaseUrl: url, log });
      let queued = 0;
      hubB.onDeliveriesQueued(() => queued++);
      try {
        const first = await deliverOne("First decree");
        // Workers on every instance hear that deliveries were stored (to wake instead of waiting for their poll).
        await expect.poll(() => queued, { timeout: 5000 }).toBe(1);
        const firstPage = new AbortController();
        const page1 = sseReader(
          await alertEventsResponse(hubB, "ana", new Request("http://x/app/events", { signal: firstPage.signal })),
        );
        // A fresh page starts from now: the earlier alert is not pushed.
        const second = await deliverOne("Second decree");
        await expect.poll(() => page1.events.length, { timeout: 5000 }).toBe(1);
        expect(page1.events[0]?.event).toBe("alert");
        const data = JSON.parse(page1.events[0]?.data ?? "{}");
        expect(data).toMatchObject({ documentId: second.id, title: "Second decree", profileName: "All AML" });
        // The event says why, in the Alerts page's words and the page's language (Spanish by default).
        expect(data.why).toMatch(/^Coincide con tu perfil «All AML»: área Prevención del blanqueo/);
        expect(page1.events[0]?.id).toBe(String(data.alertId));
        firstPage.abort();
        await page1.pump;

        // The page reconnects with Last-Event-ID of the first alert: it gets the second one, then a third live.
        const firstId = Number(data.alertId) - 1;
        const reconnect = new AbortController();
        const page2 = sseReader(
          await alertEventsResponse(
            hubA,
            "ana",
            new Request("http://x/app/events", {
              headers: { "last-event-id": String(firstId) },
              signal: reconnect.signal,
            }),
            { heartbeatMs: 50, locale: "en" },
          ),
        );
        await expect.poll(() => page2.events.length, { timeout: 5000 }).toBe(1);
        const replayed = JSON.parse(page2.events[0]?.data ?? "{}");
        expect(replayed.documentId).toBe(second.id);
        // The replay says why too, here in English.
        expect(replayed.why).toMatch(/^Matches your profile “All AML”: area Anti-money laundering/);
        const third = await deliverOne("Third decree");
        await expect.poll(() => page2.events.length, { timeout: 5000 }).toBe(2);
        const live = JSON.parse(page2.events[1]?.data ?? "{}");
        expect(live.documentId).toBe(third.id);
        expect(live.why).toMatch(/^Matches your profile “All AML”/);
        await expect.poll(() => page2.comments(), { timeout: 2000 }).toBeGreaterThan(0);
        reconnect.abort();
        await page2.pump;
        expect(page2.events.map((e) => JSON.parse(e.data ?? "{}").documentId)).not.toContain(first.id);
      } finally {
        await hubA.close();
        await hubB.close();
      }
    });
  });
}
