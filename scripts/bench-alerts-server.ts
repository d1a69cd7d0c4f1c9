/**
 * Alert latency through the running server (the built app: HTTP server, services, pg-boss jobs,
 * delivery worker, SSE), on PGlite (one instance) and, with TEST_DATABASE_URL, on PostgreSQL with
 * two instances in this process (the page's stream on one, matching and delivery wherever pg-boss
 * and the workers take them):
 *  1. commit of a document → the `event: alert` a signed-in page's /app/events stream receives;
 *  2. commit of a document → a Standard-Webhooks receiver (real HTTP server) gets the POST;
 *     both through the path ingestion takes: the document stored, then the onDocument hook
 *     (services.alerts.queueMatch: a pg-boss job) → matching → deliveries → worker.
 *  3. fan-out: one document against N profiles of N users (default 10,000): matching (every
 *     delivery stored) and until every in-app alert is written by the instances' workers.
 * A benchmark, not a test: figures vary with the machine's load.
 * Usage: npm run build && ./node_modules/.bin/node scripts/bench-alerts-server.ts [--samples 30] [--profiles 10000]
 */
process.env.NODE_ENV = "production";
const { parseArgs } = await import("node:util");
const { randomUUID } = await import("node:crypto");
const { sql } = await import("drizzle-orm");
const { createWebhook, webhookInputSchema } = await import("../app/.server/alerts/webhooks.ts");
const { insertStoredDocument, startReceiver } = await import("../tests/support/alerts-fixtures.ts");
const { setupOwnerOverHttp } = await import("../tests/support/http-session.ts");
const { startInProcessServer } = await import("../tests/support/in-process-server.ts");
const { databaseTargets } = await import("../tests/support/postgres.ts");

const { values: args } = parseArgs({
  options: {
    samples: { type: "string", default: "30" },
    profiles: { type: "string", default: "10000" },
    "fanout-timeout": { type: "string", default: "300" },
  },
});
const samples = Number(args.samples);
const profileCount = Number(args.profiles);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const ms = (v: number) => `${v.toFixed(0)} ms`;

/** Resolves each awaited document id with the time its SSE event arrived. */
function sseWatcher(body: ReadableStream<Uint8Array>) {
  const waiting = new Map<string, (at: number) => void>();
  const arrived = new Map<string, number>();
  const reader = body.getReader();
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
        const at = performance.now();
        arrived.set(documentId, at);
        waiting.get(documentId)?.(at);
      }
    }
  })();
  return {
    wait: (documentId: string) =>
      new Promise<number>((resolve) => {
        const at = arrived.get(documentId);
        if (at !== undefined) resolve(at);
        else waiting.set(documentId, resolve);
      }),
    cancel: () => reader.cancel().catch(() => {}),
  };
}

const rows: string[][] = [];
const env = { WEBHOOKS_ALLOW_PRIVATE_URLS: "1", NODE_ENV: "production", LOG_LEVEL: "silent" };

for (const target of databaseTargets()) {
  const url = await target.create();
  const dbEnv: Record<string, string> = url ? { ...env, DATABASE_URL: url } : env;
  const a = await startInProcessServer(dbEnv, { inMemory: false });
  const b = url ? await startInProcessServer(dbEnv, { inMemory: false, dataDir: a.dataDir }) : a;
  const instances = url ? "2 instances" : "1 instance";
  const receiver = await startReceiver();
  try {
    const owner = await setupOwnerOverHttp(a.url, a.dataDir);
    const database = a.app.database;
    const [member] = await database.rows<{ organization_id: string; user_id: string }>(
      sql`select organization_id, user_id from auth_member limit 1`,
    );
    if (!member) throw new Error("no member");
    await database.rows(sql`
      insert into alert_profiles (id, organization_id, user_id, name, areas)
      values (${randomUUID()}, ${member.organization_id}, ${member.user_id}, 'AML', '{aml}')`);
    await createWebhook(
      database.db,
      member.organization_id,
      webhookInputSchema("en", { allowPrivate: true }).parse({ url: `${receiver.base}/hook`, areas: ["aml"] }),
    );
    // The page's stream is on the other instance when there are two.
    const events = await fetch(`${b.url}/app/events`, { headers: { cookie: owner.cookie } });
    const sse = sseWatcher(events.body as ReadableStream<Uint8Array>);
    const toSse: number[] = [];
    const toHook: number[] = [];
    for (let i = 0; i < samples + 3; i++) {
      const id = await insertStoredDocument(database, { title: `Orden ${i} sobre blanqueo de capitales` });
      const committed = performance.now();
      const hook = new Promise<number>((resolve) => {
        const poll = setInterval(() => {
          const got = receiver.received.find((r) => r.body.includes(id));
          if (got) {
            clearInterval(poll);
            resolve(got.at - (Date.now() - performance.now()));
          }
        }, 2);
      });
      // What ingestion's onDocument hook does after the store's commit.
      await a.app.services.alerts.queueMatch(id);
      const [sseAt, hookAt] = await Promise.all([sse.wait(id), hook]);
      // The first few warm up the JIT and the connections.
      if (i >= 3) {
        toSse.push(sseAt - committed);
        toHook.push(hookAt - committed);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await sse.cancel();
    rows.push([
      `${target.name}, ${instances}`,
      `commit → SSE event: p50 ${ms(percentile(toSse, 50))}, p95 ${ms(percentile(toSse, 95))}`,
      `commit → webhook received: p50 ${ms(percentile(toHook, 50))}, p95 ${ms(percentile(toHook, 95))}`,
    ]);
    process.stderr.write(`${rows.at(-1)?.join(" | ")}\n`);

    // Fan-out: N users with a profile each.
    await database.rows(sql`
      insert into auth_user (id, name, email, locale)
      select 'bench-' || g, 'User ' || g, 'bench-' || g || '@example.com', 'es' from generate_series(1, ${profileCount}) g`);
    await database.rows(sql`
      insert into alert_profiles (id, organization_id, user_id, name, areas)
      select gen_random_uuid(), ${member.organization_id}, 'bench-' || g, 'P' || g, '{aml}' from generate_series(1, ${profileCount}) g`);
    const id = await insertStoredDocument(database, { title: "Ley de fan-out" });
    const started = performance.now();
    const result = await a.app.services.alerts.matchNow(id);
    const matched = performance.now() - started;
    const deadline = Date.now() + Number(args["fanout-timeout"]) * 1000;
    let delivered = Number.NaN;
    for (;;) {
      const [row] = await database.rows<{ n: number }>(
        sql`select count(*)::int as n from alerts where document_id = ${id}::uuid`,
      );
      if ((row?.n ?? 0) >= result.matched) {
        delivered = performance.now() - started;
        break;
      }
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    rows.push([
      `${target.name}, ${instances}`,
      `fan-out, ${result.matched} profiles: ${result.deliveries} deliveries stored in ${ms(matched)}`,
      Number.isNaN(delivered)
        ? `in-app alerts not all written within ${args["fanout-timeout"]} s`
        : `every in-app alert written ${ms(delivered)} after matching started`,
    ]);
    process.stderr.write(`${rows.at(-1)?.join(" | ")}\n`);
  } finally {
    await receiver.stop();
    if (b !== a) await b.stop();
    await a.stop();
    await target.cleanup();
  }
}

process.stdout.write(`\n${rows.map((row) => row.join(" | ")).join("\n")}\n`);
process.exit(0);

export {};
