/**
 * The alerts as the services wire them (in-process, NODE_ENV=test: matching inline): a stored
 * document matched for real members (auth tables) reaches the open SSE stream, the in-app inbox and
 * a Standard-Webhooks receiver, a failing receiver is retried (nothing lost), shutdown ends the
 * streams; and the pg-boss job path: one matching job per document whatever the calls.
 */
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlertHub } from "../../app/.server/alerts/events.ts";
import { unreadCount } from "../../app/.server/alerts/inbox.ts";
import { createAlertJobs } from "../../app/.server/alerts/jobs.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createProfile, profileInputSchema } from "../../app/.server/alerts/profiles.ts";
import { createWebhook, webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import { createDeliveryWorker } from "../../app/.server/alerts/worker.ts";
import { createLogger } from "../../app/.server/logger.ts";
import {
  insertStoredDocument,
  memoryDirectory,
  memoryDocuments,
  openMigrated,
  readSse,
  startReceiver,
} from "../support/alerts-fixtures.ts";
import { startServices } from "../support/contact-services.ts";
import { inviteMember, type SignedIn, setupOwner } from "../support/platform-members.ts";

describe("alerts wired in the services", () => {
  let app: Awaited<ReturnType<typeof startServices>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let owner: SignedIn;
  let member: SignedIn;

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await startServices({
      AUTH_SECRET: "auth-secret-auth-secret-auth-secret-0123",
      WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
      ALERTS_RETRY_BASE_MS: "50",
      ALERTS_RETRY_MAX_MS: "100",
    });
    owner = await setupOwner(app.services.auth, app.config.dataDir, { email: "ana@example.com" });
    const groupId = await app.services.auth.createGroup(owner.member, "Compliance", owner.meta());
    member = await inviteMember(app.services.auth, owner, {
      email: "bob@example.com",
      locale: "en",
      groupIds: [groupId],
    });
    const es = profileInputSchema("es");
    await createProfile(
      app.database.db,
      owner.member.organizationId,
      es.parse({ name: "AML", userId: owner.member.userId, areas: ["aml"] }),
    );
    await createProfile(
      app.database.db,
      owner.member.organizationId,
      es.parse({ name: "Grupo", groupId, keywords: ["capitales"] }),
    );
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
  });

  it("matches a stored document: SSE event, inbox and a signed webhook, retried after a failure", async () => {
    const hook = await createWebhook(
      app.database.db,
      owner.member.organizationId,
      webhookInputSchema("en", { allowPrivate: true }).parse({ url: `${receiver.base}/hook`, areas: ["aml"] }),
    );
    const page = new AbortController();
    const response = await app.services.alerts.events(
      owner.member.userId,
      new Request("http://127.0.0.1:3000/app/events", { signal: page.signal }),
    );
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const sse = readSse(response.body as ReadableStream<Uint8Array>);
    receiver.failNext(1, "/hook");
    const documentId = await insertStoredDocument(app.database, {
      title: "Orden sobre blanqueo de capitales",
      areas: ["aml"],
    });
    await app.services.alerts.queueMatch(documentId);

    await expect.poll(() => sse.events.length, { timeout: 10_000 }).toBe(1);
    const data = JSON.parse(sse.events[0]?.data ?? "{}");
    expect(sse.events[0]?.event).toBe("alert");
    expect(sse.events[0]?.id).toBe(String(data.alertId));
    expect(Object.keys(data).sort()).toEqual(["alertId", "documentId", "profileId", "profileName", "title", "why"]);
    expect(data).toMatchObject({ documentId, title: "Orden sobre blanqueo de capitales" });
    expect(await unreadCount(app.database.db, owner.member.userId)).toBe(1);
    // The group's member gets the group profile's alert.
    await expect.poll(() => unreadCount(app.database.db, member.member.userId), { timeout: 10_000 }).toBe(1);

    // The receiver failed the first attempt; the retry arrives, signed, with the contract's body.
    await expect.poll(() => receiver.received.filter((r) => r.path === "/hook").length, { timeout: 10_000 }).toBe(1);
    const got = receiver.received.find((r) => r.path === "/hook");
    const body = new Webhook(hook.secret).verify(got?.body ?? "", {
      "webhook-id": String(got?.headers["webhook-id"]),
      "webhook-timestamp": String(got?.headers["webhook-timestamp"]),
      "webhook-signature": String(got?.headers["webhook-signature"]),
    }) as { type: string; data: { webhookId: string; document: Record<string, unknown> } };
    expect(body.type).toBe("document.matched");
    expect(body.data.webhookId).toBe(hook.id);
    expect(body.data.document.id).toBe(documentId);
    expect(body.data.document).not.toHaveProperty("text");
    // The receiver answers before the worker records the answer: wait for the row, not the request.
    const webhookRow = async () =>
      (
        await app.database.rows<{ attempts: number; status: string }>(
          sql`select attempts, status from deliveries where channel = 'webhook'`,
        )
      )[0];
    await expect.poll(webhookRow, { timeout: 10_000 }).toEqual({ attempts: 2, status: "sent" });

    // Matching again (a reclassification with the same result) sends nothing twice.
    const again = await app.services.alerts.matchNow(documentId);
    expect(again.newMatches).toBe(0);
    expect(again.deliveries).toBe(0);

    // Shutdown ends open streams.
    app.services.alerts.closeStreams();
    await sse.pump;
    page.abort();
  }, 30_000);
  it("queues yesterday's digest at the user's hour (Europe/Madrid) once, and the worker mails it", async () => {
    const hour = Number(
      new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Madrid", hour: "2-digit", hourCycle: "h23" }).format(
        new Date(),
      ),
    );
    const profile = await createProfile(
      app.database.db,
      owner.member.organizationId,
      profileInputSchema("es").parse({
        name: "Resumen",
        userId: owner.member.userId,
        email: "digest",
        digestHour: hour,
      }),
    );
    const documentId = await insertStoredDocument(app.database, { title: "Resolución del día anterior" });
    await app.database.rows(sql`
      insert into alerts (user_id, document_id, profile_id, title, created_at)
      values (${owner.member.userId}, ${documentId}::uuid, ${profile.id}::uuid, 'Resolución del día anterior', now() - interval '24 hours')`);
    expect(await app.services.alerts.enqueueDigests()).toBe(1);
    expect(await app.services.alerts.enqueueDigests()).toBe(0);
    await expect
      .poll(
        async () =>
          (
            await app.database.rows<{ status: string }>(
              sql`select status from deliveries where match_key like 'digest:%'`,
            )
          )[0]?.status,
        { timeout: 10_000 },
      )
      .toBe("sent");
    const [row] = await app.database.rows<{ recipient: string; subject: string }>(
      sql`select recipient, payload->>'subject' as subject from deliveries where match_key like 'digest:%'`,
    );
    expect(row?.recipient).toBe("ana@example.com");
    expect(row?.subject).toMatch(/^Resumen del \d{4}-\d{2}-\d{2}: 1 documento$/);
  }, 30_000);
});

describe("the matching job on pg-boss", () => {
  it("keeps at most one job running and one queued per document, and schedules digests and the purge", async () => {
    const database = await openMigrated(undefined);
    const matched: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const jobs = createAlertJobs({
      database,
      log: createLogger("silent"),
      match: async (id) => {
        matched.push(id);
        await gate;
      },
      digests: async () => 0,
      purge: async () => 0,
    });
    try {
      await jobs.start();
      const id = "0b6b7c2e-7c1b-4d8e-9a55-2a3f9d0e1c11";
      expect(await jobs.queueMatch(id)).toBeTypeOf("string");
      // Woken by NOTIFY, not by the next poll.
      await expect.poll(() => matched.length, { timeout: 5_000, interval: 50 }).toBe(1);
      // While it runs, a reclassification queues one more; further sends add nothing.
      expect(await jobs.queueMatch(id)).toBeTypeOf("string");
      expect(await jobs.queueMatch(id)).toBeNull();
      expect(await jobs.queueMatch(id)).toBeNull();
      // Another document is not held back.
      expect(await jobs.queueMatch("1c7c8d3f-8d2c-4e9f-8b66-3b4fae1f2d22")).toBeTypeOf("string");
      release();
      await expect.poll(() => matched.length, { timeout: 15_000, interval: 100 }).toBe(3);
      expect(matched.filter((m) => m === id)).toHaveLength(2);
      const schedules = await database.rows<{ name: string }>(sql`select name from pgboss.schedule order by name`);
      expect(schedules.map((s) => s.name)).toEqual(["alerts-digests", "alerts-purge"]);
    } finally {
      release();
      await jobs.stop();
      await database.close();
    }
  }, 40_000);
});

describe("in-app deliveries in batches", () => {
  it("writes a batch's alerts in one transaction, notifies each, and falls back row by row when one is bad", async () => {
    const database = await openMigrated(undefined);
    const log = createLogger("silent");
    const users = Array.from({ length: 100 }, (_, i) => ({
      userId: `u${i}`,
      email: `u${i}@example.com`,
      language: "es" as const,
    }));
    const directory = memoryDirectory(users, {});
    const documents = memoryDocuments();
    const hub = await createAlertHub(database, { log });
    const seen: number[] = [];
    const unsubscribe = await hub.subscribe("u57", undefined, (event) => seen.push(event.alertId));
    try {
      const es = profileInputSchema("es");
      for (const user of users)
        await createProfile(database.db, "org", es.parse({ name: "AML", userId: user.userId, areas: ["aml"] }));
      const doc = documents.add();
      const result = await matchDocument(database, doc.id, { loadDocument: documents.load, directory });
      expect(result.deliveries).toBe(100);
      // One bad row among them: its payload names no valid document id.
      await database.rows(sql`
        insert into deliveries (id, match_key, channel, recipient, organization_id, payload)
        values (gen_random_uuid(), 'bad', 'inapp', 'u1', 'org', ${JSON.stringify({ userId: "u1", documentId: "not-a-uuid", profileId: "x", title: "t" })}::jsonb)`);
      const worker = createDeliveryWorker({
        database,
        transport: { send: async () => {}, close: () => {} } as never,
        mailFrom: "a@example.com",
        siteUrl: "https://x.example",
        settings: { batchSize: 64, retryBaseMs: 60_000 },
        log,
      });
      await worker.drain();
      const [alertCount] = await database.rows<{ n: number }>(sql`select count(*)::int as n from alerts`);
      expect(alertCount?.n).toBe(100);
      const states = await database.rows<{ status: string; n: number }>(
        sql`select status, count(*)::int as n from deliveries group by status order by status`,
      );
      expect(states).toEqual([
        { status: "pending", n: 1 },
        { status: "sent", n: 100 },
      ]);
      await expect.poll(() => seen.length, { timeout: 5000 }).toBe(1);
    } finally {
      unsubscribe();
      await hub.close();
      await database.close();
    }
  }, 60_000);
});
