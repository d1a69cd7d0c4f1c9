/**
 * Know first (issue 20): publication of the BOE's daily summary → the alert on an open page's
 * /app/events stream and at a webhook receiver, through the running server (the built app:
 * HTTP server, services, pg-boss jobs with the BOE watch, classification, matching, delivery
 * worker, SSE) on PGlite, against the source replay in its own process.
 *
 * Each trial: the replay serves nothing for today (404), then "publishes" a recorded day
 * (2018-12-06, 55 documents) as today's summary at a random moment (uniform over one watch
 * interval, so the watch's phase is random); the server's watch finds it on its next check
 * (a conditional request every BOE_WATCH_SECONDS, 15 by default), ingests the day at the
 * sources' pace (2 requests per second per source), and every document reaches the profile
 * (no filters: every document alerts) on the page and the webhook. Measured per document:
 * publication → SSE event, publication → webhook POST received; and per trial the first
 * document's. Between trials the day's documents and fetch claims are deleted so the next
 * publication brings new documents again. Nothing is sped up: the watch interval and the
 * pacing are the production ones unless --watch-seconds says otherwise (printed).
 * A benchmark, not a test: figures vary with the machine's load.
 * Usage: npm run bench:publication [-- --trials 3 --watch-seconds 15 --day 2018-12-06]
 */
process.env.NODE_ENV = "production";
const { parseArgs } = await import("node:util");
const { randomUUID } = await import("node:crypto");
const { sql } = await import("drizzle-orm");
const { createWebhook, webhookInputSchema } = await import("../app/.server/alerts/webhooks.ts");
const { readSse, startReceiver } = await import("../tests/support/alerts-fixtures.ts");
const { setupOwnerOverHttp } = await import("../tests/support/http-session.ts");
const { startInProcessServer } = await import("../tests/support/in-process-server.ts");
const { startReplayProcess } = await import("../tests/support/replay-process.ts");
const { madridDate } = await import("../app/lib/madrid-date.ts");
const { BOE_WATCH_SECONDS_DEFAULT } = await import("../app/.server/sources/boe/config.ts");

const { values: args } = parseArgs({
  options: {
    trials: { type: "string", default: "3" },
    "watch-seconds": { type: "string", default: String(BOE_WATCH_SECONDS_DEFAULT) },
    day: { type: "string", default: "2018-12-06" },
    "trial-timeout": { type: "string", default: "180" },
  },
});
const trials = Number(args.trials);
const watchSeconds = Number(args["watch-seconds"]);
const trialTimeoutMs = Number(args["trial-timeout"]) * 1000;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const s = (v: number) => `${(v / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const replay = await startReplayProcess();
const receiver = await startReceiver();
const server = await startInProcessServer(
  {
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
    INGEST_SOURCES: "boe",
    BOE_API_URL: replay.url,
    BOE_WATCH_SECONDS: String(watchSeconds),
    // Always inside the window, whatever the day and hour the benchmark runs.
    BOE_WATCH_WINDOW: "0-6 00:00-24:00",
  },
  { inMemory: false },
);
const lines: string[] = [];
try {
  const owner = await setupOwnerOverHttp(server.url, server.dataDir);
  const database = server.app.database;
  const [member] = await database.rows<{ organization_id: string; user_id: string }>(
    sql`select organization_id, user_id from auth_member limit 1`,
  );
  if (!member) throw new Error("no member");
  await database.rows(sql`
    insert into alert_profiles (id, organization_id, user_id, name)
    values (${randomUUID()}, ${member.organization_id}, ${member.user_id}, 'Todo el BOE')`);
  await createWebhook(
    database.db,
    member.organization_id,
    webhookInputSchema("en", { allowPrivate: true }).parse({ url: `${receiver.base}/hook` }),
  );
  const events = await fetch(`${server.url}/app/events`, { headers: { cookie: owner.cookie } });
  const sse = readSse(events.body as ReadableStream<Uint8Array>);
  // Arrival time of each SSE event (readSse keeps the events; stamp them as they come).
  const sseAt: number[] = [];
  const stamp = setInterval(() => {
    while (sseAt.length < sse.events.length) sseAt.push(Date.now());
  }, 5);

  const today = madridDate();
  const expected = 55;
  const toSse: number[] = [];
  const toHook: number[] = [];
  const firstSse: number[] = [];
  const firstHook: number[] = [];
  for (let trial = 0; trial < trials; trial++) {
    // Unpublished until a random moment over one watch interval from now (plus 2 s).
    const publishedAt = Date.now() + 2000 + Math.random() * watchSeconds * 1000;
    await replay.publish({ date: today, from: args.day, at: publishedAt });
    const sseFrom = sse.events.length;
    const hookFrom = receiver.received.length;
    const deadline = publishedAt + trialTimeoutMs;
    while (Date.now() < deadline) {
      if (sse.events.length - sseFrom >= expected && receiver.received.length - hookFrom >= expected) break;
      await sleep(200);
    }
    await sleep(50);
    const sseTimes = sseAt.slice(sseFrom).map((at) => at - publishedAt);
    const hookTimes = receiver.received.slice(hookFrom).map((r) => r.at - publishedAt);
    toSse.push(...sseTimes);
    toHook.push(...hookTimes);
    if (sseTimes.length) firstSse.push(Math.min(...sseTimes));
    if (hookTimes.length) firstHook.push(Math.min(...hookTimes));
    const line = `trial ${trial + 1}: ${sseTimes.length}/${expected} SSE events, first ${s(Math.min(...sseTimes))}, last ${s(Math.max(...sseTimes))}; ${hookTimes.length}/${expected} webhooks, first ${s(Math.min(...hookTimes))}, last ${s(Math.max(...hookTimes))}`;
    process.stderr.write(`${line}\n`);
    lines.push(line);
    if (trial === trials - 1) break;
    // Back to "not published": the day's documents go, so the next publication brings new ones.
    await replay.publish({ date: today, from: args.day, at: Date.now() + 3_600_000 });
    await database.rows(sql`delete from documents where source = 'boe'`);
    await database.rows(sql`delete from source_fetches where key like 'boe:%'`);
    // Let the watch see the 404 (it forgets the version it had) before the next publication.
    await sleep((watchSeconds + 3) * 1000);
  }
  clearInterval(stamp);
  await sse.cancel();
  const log = await replay.log();
  const boeRequests = log.filter((r) => r.source === "boe");
  const checks = boeRequests.filter((r) => r.path.startsWith("/datosabiertos/"));
  const { busiestWindow } = await import("../app/.server/sources/replay.ts");
  lines.push(
    `PGlite, 1 instance, watch every ${watchSeconds} s${watchSeconds === BOE_WATCH_SECONDS_DEFAULT ? "" : ` (NOT the default ${BOE_WATCH_SECONDS_DEFAULT} s)`}, day ${args.day} (${expected} documents), ${trials} publications at random moments:`,
    `publication → SSE event (per document, n=${toSse.length}): p50 ${s(percentile(toSse, 50))}, p95 ${s(percentile(toSse, 95))}; first document of each publication: p50 ${s(percentile(firstSse, 50))}, p95 ${s(percentile(firstSse, 95))}`,
    `publication → webhook received (per document, n=${toHook.length}): p50 ${s(percentile(toHook, 50))}, p95 ${s(percentile(toHook, 95))}; first document: p50 ${s(percentile(firstHook, 50))}, p95 ${s(percentile(firstHook, 95))}`,
    `politeness: ${boeRequests.length} BOE requests, at most ${busiestWindow(log, "boe").count} in one second; ${checks.length} summary checks, ${checks.filter((r) => r.status === 304).length} answered 304, ${checks.filter((r) => r.status === 404).length} 404 (not yet published)`,
    `target: p95 < 60 s → SSE ${percentile(toSse, 95) < 60_000 ? "met" : "NOT met"}, webhook ${percentile(toHook, 95) < 60_000 ? "met" : "NOT met"}`,
  );
} finally {
  await server.stop();
  await receiver.stop();
  await replay.stop();
}
process.stdout.write(`\n${lines.join("\n")}\n`);
process.exit(0);

export {};
