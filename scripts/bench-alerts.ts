/**
 * Alert benchmarks, on PGlite and (with TEST_DATABASE_URL) on PostgreSQL in a throwaway database:
 *  1. one document matched against N profiles (default 10,000): time to enqueue every delivery
 *     (target < 5 s on PostgreSQL);
 *  2. latency from the commit of an alert to the SSE event a page receives (p50, p95), same
 *     instance and across two instances (PostgreSQL), and from matchDocument to the SSE event and
 *     to a webhook receiver with a running delivery worker (target p95 < 2 s).
 * Usage: ./node_modules/.bin/node scripts/bench-alerts.ts [--profiles 10000] [--samples 40]
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { alertEventsResponse, createAlertHub } from "../app/.server/alerts/events.ts";
import { alertsChannel } from "../app/.server/alerts/inbox.ts";
import { matchDocument, type Recipient } from "../app/.server/alerts/matching.ts";
import { createWebhook, webhookInputSchema } from "../app/.server/alerts/webhooks.ts";
import { createDeliveryWorker } from "../app/.server/alerts/worker.ts";
import type { Database } from "../app/.server/db/client.ts";
import { rowsOf } from "../app/.server/db/rows.ts";
import { alertProfiles } from "../app/.server/db/schema.ts";
import { createLogger } from "../app/.server/logger.ts";
import { createMailTransport } from "../app/.server/mail/transport.ts";
import { startTriage } from "../app/.server/triage/store.ts";
import { memoryDirectory, memoryDocuments, openMigrated, startReceiver } from "../tests/support/alerts-fixtures.ts";
import { databaseTargets } from "../tests/support/postgres.ts";

const { values: args } = parseArgs({
  options: { profiles: { type: "string", default: "10000" }, samples: { type: "string", default: "40" } },
});
const profileCount = Number(args.profiles);
const samples = Number(args.samples);
const log = createLogger("silent");

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** Waits for SSE frames on a Response and resolves each awaited document id with its arrival time. */
function sseWatcher(response: Response) {
  const waiting = new Map<string, (at: number) => void>();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split("\n").find((l) => l.startsWith("data: "));
        if (!data) continue;
        const { documentId } = JSON.parse(data.slice(6)) as { documentId: string };
        waiting.get(documentId)?.(performance.now());
        waiting.delete(documentId);
      }
    }
  })();
  return (documentId: string) => new Promise<number>((resolve) => waiting.set(documentId, resolve));
}

async function benchMatching(database: Database): Promise<string[]> {
  const users: Recipient[] = [];
  const rows = [];
  for (let i = 0; i < profileCount; i++) {
    const userId = `u${i}`;
    users.push({ userId, email: `${userId}@example.com`, language: i % 2 ? "en" : "es" });
    rows.push({
      id: randomUUID(),
      organizationId: `org${i % 50}`,
      userId,
      name: `Profile ${i}`,
      // Every profile matches the benchmark document (the worst case), half of them by keyword too.
      areas: i % 3 ? ["aml"] : [],
      keywords: i % 2 ? ["blanqueo"] : [],
      emailMode: i % 4 === 0 ? "immediate" : "off",
    });
  }
  for (let i = 0; i < rows.length; i += 1000) await database.db.insert(alertProfiles).values(rows.slice(i, i + 1000));
  const documents = memoryDocuments();
  const doc = documents.add();
  const started = performance.now();
  const result = await matchDocument(database, doc.id, {
    loadDocument: documents.load,
    directory: memoryDirectory(users, {}),
    onMatched: startTriage,
  });
  const elapsed = performance.now() - started;
  // The in-app half: the worker turns 10,000 deliveries into alerts (mail rows are left out: no SMTP here).
  await database.rows(sql`delete from deliveries where channel <> 'inapp'`);
  const worker = createDeliveryWorker({
    database,
    transport: createMailTransport({ dataDir: "/tmp", log }),
    mailFrom: "a@example.com",
    siteUrl: "https://x.example",
    log,
  });
  const drainStarted = performance.now();
  const delivered = await worker.drain();
  const drained = performance.now() - drainStarted;
  await worker.stop();
  await database.rows(sql`delete from alerts`);
  await database.rows(sql`delete from alert_profiles`);
  await database.rows(sql`delete from deliveries`);
  return [
    `match 1 document × ${profileCount} profiles: ${result.matched} matches, ${result.deliveries} deliveries enqueued in ${fmt(elapsed)}`,
    `delivery worker (one): ${delivered} in-app alerts inserted and notified in ${fmt(drained)}`,
  ];
}

async function benchLatency(a: Database, b: Database, url: string | undefined, wake: boolean): Promise<string[]> {
  const out: string[] = [];
  const hubA = await createAlertHub(a, { databaseUrl: url, log });
  const hubB = b === a ? hubA : await createAlertHub(b, { databaseUrl: url, log });
  const pages: AbortController[] = [];
  const open = async (hub: typeof hubA) => {
    const abort = new AbortController();
    pages.push(abort);
    return sseWatcher(
      await alertEventsResponse(hub, "bench-user", new Request("http://x/app/events", { signal: abort.signal })),
    );
  };
  const sameWait = await open(hubA);
  const otherWait = b === a ? undefined : await open(hubB);
  const same: number[] = [];
  const other: number[] = [];
  for (let i = 0; i < samples; i++) {
    const documentId = randomUUID();
    const gotSame = sameWait(documentId);
    const gotOther = otherWait?.(documentId);
    await a.db.transaction(async (tx) => {
      const inserted = await rowsOf<{ id: string }>(
        tx,
        sql`insert into alerts (user_id, document_id, profile_id, title) values ('bench-user', ${documentId}, ${randomUUID()}, 'Bench') returning id`,
      );
      await tx.execute(sql`select pg_notify(${alertsChannel}, ${String(inserted[0]?.id)})`);
    });
    const committed = performance.now();
    same.push((await gotSame) - committed);
    if (gotOther) other.push((await gotOther) - committed);
    await new Promise((r) => setTimeout(r, 20));
  }
  out.push(
    `alert commit → SSE, same instance: p50 ${fmt(percentile(same, 50))}, p95 ${fmt(percentile(same, 95))} (${samples} samples)`,
  );
  if (other.length)
    out.push(
      `alert commit → SSE, other instance: p50 ${fmt(percentile(other, 50))}, p95 ${fmt(percentile(other, 95))}`,
    );

  // End to end with a running worker (poll 250 ms): matchDocument → SSE and → webhook receiver.
  const receiver = await startReceiver();
  const hook = await createWebhook(
    a.db,
    "bench-org",
    webhookInputSchema("en", { allowPrivate: true }).parse({ url: `${receiver.base}/hook`, areas: ["aml"] }),
  );
  await a.db
    .insert(alertProfiles)
    .values({ id: randomUUID(), organizationId: "bench-org", userId: "bench-user", name: "Bench", areas: ["aml"] });
  const documents = memoryDocuments();
  const directory = memoryDirectory([{ userId: "bench-user", email: "b@example.com", language: "en" }], {});
  const worker = createDeliveryWorker({
    database: b,
    transport: createMailTransport({ dataDir: "/tmp", log }),
    mailFrom: "a@example.com",
    siteUrl: "https://x.example",
    settings: { pollMs: 250, allowPrivateUrls: true },
    log,
  });
  worker.start();
  if (wake) hubB.onDeliveriesQueued(() => worker.wake());
  const toSse: number[] = [];
  const toHook: number[] = [];
  const e2eWait = otherWait ?? sameWait;
  for (let i = 0; i < samples; i++) {
    const doc = documents.add();
    const got = e2eWait(doc.id);
    const before = receiver.received.length;
    const started = performance.now();
    const startedWall = Date.now();
    await matchDocument(a, doc.id, { loadDocument: documents.load, directory, onMatched: startTriage });
    toSse.push((await got) - started);
    while (receiver.received.length === before) await new Promise((r) => setTimeout(r, 2));
    toHook.push((receiver.received.at(-1)?.at ?? 0) - startedWall);
  }
  await worker.stop();
  await receiver.stop();
  await a.rows(sql`delete from webhooks where id = ${hook.id}`);
  const where = `${b === a ? "one instance" : "match on instance A, worker and page on instance B"}, ${wake ? "worker woken by NOTIFY" : "worker polling 250 ms"}`;
  out.push(`matchDocument → SSE (${where}): p50 ${fmt(percentile(toSse, 50))}, p95 ${fmt(percentile(toSse, 95))}`);
  out.push(
    `matchDocument → webhook receiver (${where}): p50 ${fmt(percentile(toHook, 50))}, p95 ${fmt(percentile(toHook, 95))}`,
  );
  for (const page of pages) page.abort();
  await hubA.close();
  if (hubB !== hubA) await hubB.close();
  return out;
}

for (const target of databaseTargets()) {
  const url = await target.create();
  const a = await openMigrated(url);
  const b = url ? await openMigrated(url) : a;
  try {
    console.log(`# ${target.name}`);
    for (const line of await benchMatching(a)) console.log(line);
    for (const line of await benchLatency(a, b, url, true)) console.log(line);
  } finally {
    if (b !== a) await b.close();
    await a.close();
    await target.cleanup();
  }
}
