/**
 * Load on one instance (issue 42): `npm run bench:load [-- --database-url postgres://… --connections 1000
 * --orgs 100 --profiles 100 --day 2026-10-01]`.
 *
 * The built server runs as its own process with the production flags (server/runtime-flags.ts, as
 * `npm start`), on PGlite under a temporary DATA_DIR or on the PostgreSQL given. Before the measured
 * start the database gets `--orgs` organisations of `--profiles` members each, every member with an
 * alert profile on one business area (round robin over the taxonomy) and each organisation a webhook
 * (two areas) at a real HTTP receiver in this process; the first member of the first organisation is
 * the setup's owner (signed in over HTTP with a second factor), the other sessions are rows like the
 * ones a sign-in leaves (MFA verified), their cookies signed with AUTH_SECRET as better-auth signs
 * them. Then the server restarts on that database (start to healthy is timed: a warm start), and
 * `--connections` members spread over the organisations open GET /app/events. The source replay
 * publishes the recorded BOE day as today's at a known moment; the server's own watch finds it and
 * ingests it at the sources' pace. Measured per SSE event and per webhook POST: publication → arrival
 * and the document's row (created_at, its ingestion) → arrival. Checks: every connection answered
 * 200 and stayed open to the end; each connected member received every in-app alert stored for
 * them (read from the database afterwards), and the receiver every webhook delivery sent.
 * Memory: the server process's peak RSS (VmHWM) and RSS after the burst, against issue 38's targets.
 *
 * The generator's headroom: `--reference` first drives a bare SSE server (a child process) with the
 * same client code, the same connection count and as many events as this run's expected events, as
 * fast as it sends them: if the client keeps up there with a small lag, it outran the server here.
 * The client's event-loop delay during the real run is printed too. A benchmark, not a test.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { createWebhook, webhookInputSchema } from "../app/.server/alerts/webhooks.ts";
import { openDatabase } from "../app/.server/db/client.ts";
import { madridDate } from "../app/lib/madrid-date.ts";
import { areas } from "../app/lib/taxonomy.ts";
import { startReceiver } from "../tests/support/alerts-fixtures.ts";
import { setupOwnerOverHttp } from "../tests/support/http-session.ts";
import { ingestedDay, startReplayProcess } from "../tests/support/replay-process.ts";
import { freePort, projectRoot, type RunningServer, startServer } from "../tests/support/server.ts";
import { benchEnv, currentRss, formatBytes, MemoryWatch, percentile, rawRequest, sleep } from "./bench-lib.ts";

const { values: args } = parseArgs({
  options: {
    "database-url": { type: "string" },
    connections: { type: "string", default: "1000" },
    orgs: { type: "string", default: "100" },
    profiles: { type: "string", default: "100" },
    day: { type: "string", default: "2026-10-01" },
    "watch-seconds": { type: "string", default: "15" },
    "quiet-seconds": { type: "string", default: "60" },
    timeout: { type: "string", default: "1800" },
    reference: { type: "boolean", default: true },
    help: { type: "boolean", default: false },
  },
  allowNegative: true,
});
if (args.help) {
  console.log(`npm run bench:load -- [options]
  --database-url <url>   PostgreSQL (loopback) instead of the embedded PGlite
  --connections <n>      open /app/events streams (1000)
  --orgs <n>             organisations (100)
  --profiles <n>         members with one alert profile each, per organisation (100)
  --day <date>           the recorded BOE day published as today's (2026-10-01: 201 documents)
  --watch-seconds <s>    the BOE watch's interval (15, the default of the server)
  --quiet-seconds <s>    no new event for this long after the ingestion ends the run (60)
  --no-reference         skip the bare SSE server reference`);
  process.exit(0);
}
const databaseUrl = args["database-url"];
if (databaseUrl && !/^postgres(ql)?:\/\/[^/]*(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(databaseUrl)) {
  console.error("--database-url must point at a loopback PostgreSQL");
  process.exit(2);
}
const connectionCount = Number(args.connections);
const orgCount = Number(args.orgs);
const profilesPerOrg = Number(args.profiles);
if (connectionCount > orgCount * profilesPerOrg) {
  console.error("--connections cannot exceed --orgs × --profiles (one stream per member)");
  process.exit(2);
}
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const log = (line: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

// ---------------------------------------------------------------------------------------------
// The SSE client: one socket per stream, events parsed as they arrive.

interface Stream {
  userId: string;
  events: { id: number; documentId: string; at: number }[];
  status: number;
  open: boolean;
  closedEarly: boolean;
  request: http.ClientRequest;
}

function openStream(url: string, headers: Record<string, string>, userId: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const stream = { userId, events: [], status: 0, open: false, closedEarly: false } as unknown as Stream;
    const request = http.get(url, { agent: false, headers: { accept: "text/event-stream", ...headers } }, (res) => {
      stream.status = res.statusCode ?? 0;
      if (stream.status !== 200) {
        res.resume();
        resolve(stream);
        return;
      }
      stream.open = true;
      res.setEncoding("utf8");
      let buffer = "";
      res.on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id = 0;
          let data = "";
          for (const line of frame.split("\n")) {
            if (line.startsWith("id: ")) id = Number(line.slice(4));
            else if (line.startsWith("data: ")) data = line.slice(6);
          }
          if (!data) continue; // heartbeat comments
          const parsed = JSON.parse(data) as { documentId: string; sentAt?: number };
          stream.events.push({ id, documentId: parsed.documentId, at: Date.now() });
        }
      });
      res.on("close", () => {
        if (stream.open) stream.closedEarly = true;
        stream.open = false;
      });
      resolve(stream);
    });
    stream.request = request;
    request.on("error", (error) => {
      if (stream.open) stream.closedEarly = true;
      stream.open = false;
      if (!stream.status) reject(error);
    });
  });
}

async function openStreams(url: string, who: { userId: string; cookie: string }[]): Promise<Stream[]> {
  const streams: Stream[] = [];
  // In batches: a thousand sign-in checks at once would measure the connection storm, not the alerts.
  for (let i = 0; i < who.length; i += 50) {
    streams.push(
      ...(await Promise.all(
        who
          .slice(i, i + 50)
          .map((w) =>
            openStream(
              url,
              { cookie: w.cookie, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0" },
              w.userId,
            ),
          ),
      )),
    );
  }
  return streams;
}

function closeStreams(streams: Stream[]) {
  for (const stream of streams) {
    stream.open = false;
    stream.request.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// The reference: a bare SSE server sending `events` events to each of `connections` streams.

const bareSseServer = `
const http = require("node:http");
const streams = new Set();
let sent = 0;
const server = http.createServer((req, res) => {
  if (req.url === "/go") {
    const [perStream] = [Number(req.headers["x-events"])];
    res.end("ok");
    let n = 0;
    const tick = () => {
      for (let k = 0; k < 20 && n < perStream; k++, n++) {
        for (const s of streams) s.write("event: alert\\nid: " + n + "\\ndata: " + JSON.stringify({ documentId: "d" + n, sentAt: Date.now() }) + "\\n\\n");
      }
      if (n < perStream) setImmediate(tick);
    };
    tick();
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
  res.flushHeaders();
  streams.add(res);
  res.on("close", () => streams.delete(res));
});
server.listen(0, "127.0.0.1", () => process.stdout.write("port " + server.address().port + "\\n"));
`;

async function reference(connections: number, perStream: number) {
  const child: ChildProcess = spawn(process.execPath, ["-e", bareSseServer], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<number>((resolve) => {
      child.stdout?.once("data", (chunk: Buffer) => resolve(Number(/port (\d+)/.exec(chunk.toString())?.[1])));
    });
    const url = `http://127.0.0.1:${port}/`;
    const streams = await openStreams(
      url,
      Array.from({ length: connections }, (_, i) => ({ userId: String(i), cookie: "" })),
    );
    const started = Date.now();
    await fetch(`${url}go`, { headers: { "x-events": String(perStream) } });
    const total = connections * perStream;
    const deadline = Date.now() + 600_000;
    let received = 0;
    while (Date.now() < deadline) {
      received = streams.reduce((n, st) => n + st.events.length, 0);
      if (received >= total) break;
      await sleep(20);
    }
    const seconds = (Date.now() - started) / 1000;
    closeStreams(streams);
    return { received, total, seconds, perSecond: received / seconds };
  } finally {
    child.kill();
  }
}

// ---------------------------------------------------------------------------------------------

/** Waits for /healthz to answer 200 (10 minutes at most: a first start on a loaded machine takes minutes). */
async function untilHealthy(server: RunningServer, since: number) {
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output.join("\n")}`);
    const healthy = await rawRequest(`${server.url}/healthz`, { timeoutMs: 1000 }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (healthy) return;
    if (performance.now() - since > 600_000) throw new Error("the server did not become healthy in 10 minutes");
    await sleep(10);
  }
}

/** The session cookie better-auth reads: `vn.session_token=<token>.<HMAC-SHA256(token, secret) in base64>`. */
function sessionCookie(token: string, secret: string): string {
  const signature = createHmac("sha256", secret).update(token).digest("base64");
  return `vn.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

const authSecret = randomBytes(32).toString("hex");
const replay = await startReplayProcess();
const receiver = await startReceiver();
const serverEnv: Record<string, string> = {
  AUTH_SECRET: authSecret,
  LOG_LEVEL: "warn",
  WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
  INGEST_SOURCES: "boe",
  BOE_API_URL: replay.url,
  BOE_WATCH_SECONDS: args["watch-seconds"],
  BOE_WATCH_WINDOW: "0-6 00:00-24:00",
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
};
const lines: string[] = [];
let dataDir = "";
try {
  log(`load average ${loadavg()}; ${databaseUrl ? "PostgreSQL" : "PGlite"}`);
  // 1. A first start makes the database; the owner signs in over HTTP (setup, second factor).
  dataDir = mkdtempSync(path.join(tmpdir(), "bench-load-"));
  const first = await startServer({ env: serverEnv, dataDir, waitUntilHealthy: false });
  await untilHealthy(first, performance.now());
  const owner = await setupOwnerOverHttp(first.url, dataDir, "owner@load.example");
  // The embedded database takes one process: stop the server to write the organisations.
  await first.stop();
  const database = await openDatabase({
    databaseUrl,
    pgliteDir: databaseUrl ? undefined : path.join(dataDir, "db"),
  });
  const who: { userId: string; cookie: string }[] = [];
  let profileCount = 0;
  let webhookCount = 0;
  try {
    const [ownerRow] = await database.rows<{ user_id: string; organization_id: string }>(
      sql`select user_id, organization_id from auth_member limit 1`,
    );
    if (!ownerRow) throw new Error("the setup made no member");
    const seeded = performance.now();
    const streamsPerOrg = Math.ceil(connectionCount / orgCount);
    for (let o = 0; o < orgCount; o++) {
      const orgId = o === 0 ? ownerRow.organization_id : `load-org-${o}`;
      if (o > 0) {
        await database.rows(sql`insert into auth_organization (id, name, slug, created_at)
          values (${orgId}, ${`Organización ${o}`}, ${`load-org-${o}`}, now())`);
      }
      // Members 1..n-1 (the first organisation's member 0 is the owner), one profile each.
      const from = o === 0 ? 1 : 0;
      await database.rows(sql`insert into auth_user (id, name, email, email_verified, two_factor_enabled, locale)
        select ${`load-u-${o}-`}::text || g, 'Miembro ' || g, ${`load-u-${o}-`}::text || g || '@load.example', true, true,
               case when g % 3 = 0 then 'en' else 'es' end
        from generate_series(${from}::int, ${profilesPerOrg - 1}::int) g`);
      await database.rows(sql`insert into auth_member (id, organization_id, user_id, role, created_at)
        select ${`load-m-${o}-`}::text || g, ${orgId}, ${`load-u-${o}-`}::text || g, 'member', now()
        from generate_series(${from}::int, ${profilesPerOrg - 1}::int) g`);
      const areaIds = areas.map((a) => a.id);
      for (let p = 0; p < profilesPerOrg; p++) {
        const userId = o === 0 && p === 0 ? ownerRow.user_id : `load-u-${o}-${p}`;
        const area = areaIds[(o * profilesPerOrg + p) % areaIds.length]!;
        await database.rows(sql`insert into alert_profiles (id, organization_id, user_id, name, areas)
          values (${randomUUID()}, ${orgId}, ${userId}, ${`Perfil ${area}`}, ${`{${area}}`})`);
        profileCount++;
        if (p < streamsPerOrg && who.length < connectionCount) {
          if (o === 0 && p === 0) {
            who.push({ userId, cookie: owner.cookie });
            continue;
          }
          const token = randomBytes(24).toString("base64url");
          await database.rows(sql`insert into auth_session (id, token, expires_at, created_at, updated_at, user_id,
              user_agent, ip_address, active_organization_id, mfa_verified_at)
            values (${randomUUID()}, ${token}, now() + interval '1 day', now(), now(), ${userId},
              'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0', '127.0.0.1', ${orgId}, now())`);
          who.push({ userId, cookie: sessionCookie(token, authSecret) });
        }
      }
      const hookAreas = [areaIds[o % areaIds.length]!, areaIds[(o + 7) % areaIds.length]!];
      await createWebhook(
        database.db,
        orgId,
        webhookInputSchema("en", { allowPrivate: true }).parse({ url: `${receiver.base}/hook/${o}`, areas: hookAreas }),
      );
      webhookCount++;
    }
    log(
      `seeded ${orgCount} organisations, ${profileCount} profiles, ${who.length} sessions, ${webhookCount} webhooks in ${s(performance.now() - seeded)}`,
    );
  } finally {
    await database.close();
  }

  // 2. The measured start: a warm start on the populated database.
  const today = madridDate();
  await replay.publish({ date: today, from: args.day, at: Date.now() + 3_600_000 });
  // Timed from spawn to the first 200 from /healthz, as bench-lib's startMeasuredServer does, with
  // a longer deadline: on a machine shared with other work a start can take more than its minute.
  const port = await freePort();
  const spawnedAt = performance.now();
  const server = await startServer({ port, dataDir, env: { ...benchEnv, ...serverEnv }, waitUntilHealthy: false });
  const memory = new MemoryWatch(server.child.pid!);
  await untilHealthy(server, spawnedAt);
  const startToHealthyMs = performance.now() - spawnedAt;
  let rssAfter = 0;
  try {
    // What the streams themselves hold: the resident set just before and just after they open.
    const rssBeforeStreams = currentRss(server.child.pid!);
    log(`started (warm) in ${ms(startToHealthyMs)}; opening ${who.length} event streams`);
    const opened = performance.now();
    const streams = await openStreams(`${server.url}/app/events`, who);
    const refused = streams.filter((st) => st.status !== 200);
    const refusedStatuses = [...Map.groupBy(refused, (st) => st.status)].map(
      ([status, list]) => `${status}×${list.length}`,
    );
    log(
      `${streams.length - refused.length} streams open in ${s(performance.now() - opened)}, ${refused.length} refused ${refusedStatuses.join(" ")}`,
    );
    const rssStreams = memory.peakBytes;
    await sleep(2000);
    const rssWithStreams = currentRss(server.child.pid!);
    log(
      `server RSS ${formatBytes(rssBeforeStreams)} before the streams, ${formatBytes(rssWithStreams)} with them: ${formatBytes((rssWithStreams - rssBeforeStreams) / Math.max(1, streams.length - refused.length))} a stream`,
    );
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const elu0 = performance.eventLoopUtilization();

    // 3. The day published at a known moment; the server's watch finds it.
    const publishedAt = Date.now() + 2000;
    await replay.publish({ date: today, from: args.day, at: publishedAt });
    log(`published ${args.day} as ${today} at ${new Date(publishedAt).toISOString().slice(11, 19)}; load ${loadavg()}`);
    // Until the replay has served every document of the day (on a loaded machine the pace has
    // gaps longer than ingestedDay's quiet time), then until it has had no request for 10 s.
    const dayItems = (
      readFileSync(
        path.join(
          projectRoot,
          `fixtures/sources/boe/datosabiertos/api/boe/sumario/${args.day.replaceAll("-", "")}.json`,
        ),
        "utf8",
      ).match(/"identificador"/g) ?? []
    ).length;
    for (;;) {
      const served = (await replay.log()).filter((r) => r.path.includes("xml.php")).length;
      if (served >= dayItems - 2 || Date.now() - publishedAt > Number(args.timeout) * 1000) break;
      await sleep(2000);
    }
    const ingested = await ingestedDay(replay, { quietMs: 10_000, timeoutMs: Number(args.timeout) * 1000 });
    log(`the replay served ${ingested.documents} documents; waiting for the alerts`);
    // Until nothing new arrives for --quiet-seconds.
    const count = () => streams.reduce((n, st) => n + st.events.length, 0) + receiver.received.length;
    let last = count();
    let quietSince = Date.now();
    const deadline = Date.now() + Number(args.timeout) * 1000;
    while (Date.now() - quietSince < Number(args["quiet-seconds"]) * 1000 && Date.now() < deadline) {
      await sleep(1000);
      const now = count();
      if (now !== last) {
        last = now;
        quietSince = Date.now();
      }
    }
    delay.disable();
    const elu = performance.eventLoopUtilization(elu0);
    const dropped = streams.filter((st) => st.status === 200 && (!st.open || st.closedEarly));
    memory.sample();
    rssAfter = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))?.[1]) * 1024;
    closeStreams(streams);
    await sleep(500);
    const peak = memory.stop();
    await server.stop();

    // 4. What the database says should have arrived.
    const check = await openDatabase({
      databaseUrl,
      pgliteDir: databaseUrl ? undefined : path.join(dataDir, "db"),
    });
    try {
      const docs = await check.rows<{ id: string; created_at: string }>(
        sql`select id, created_at from documents where source = 'boe'`,
      );
      const createdAt = new Map(docs.map((d) => [d.id, new Date(d.created_at).getTime()]));
      const stored = await check.rows<{ user_id: string; n: number }>(
        sql`select user_id, count(*)::int as n from alerts group by user_id`,
      );
      const storedFor = new Map(stored.map((r) => [r.user_id, r.n]));
      const [hooks] = await check.rows<{ sent: number; pending: number }>(
        sql`select count(*) filter (where status = 'sent')::int as sent,
                   count(*) filter (where status <> 'sent')::int as pending
            from deliveries where channel = 'webhook'`,
      );
      const totalAlerts = stored.reduce((n, r) => n + r.n, 0);
      let missing = 0;
      let extra = 0;
      for (const st of streams) {
        const expected = storedFor.get(st.userId) ?? 0;
        const got = new Set(st.events.map((e) => e.id)).size;
        if (got < expected) missing += expected - got;
        if (st.events.length > expected) extra += st.events.length - expected;
      }
      const sseFromPublication = streams.flatMap((st) => st.events.map((e) => e.at - publishedAt));
      const sseFromRow = streams.flatMap((st) =>
        st.events.flatMap((e) => (createdAt.has(e.documentId) ? [e.at - createdAt.get(e.documentId)!] : [])),
      );
      const hookDocs = receiver.received.map((r) => {
        const body = JSON.parse(r.body) as { data?: { document?: { id?: string } } };
        return { at: r.at, documentId: body.data?.document?.id ?? "" };
      });
      const hookFromPublication = hookDocs.map((h) => h.at - publishedAt);
      const hookFromRow = hookDocs.flatMap((h) =>
        createdAt.has(h.documentId) ? [h.at - createdAt.get(h.documentId)!] : [],
      );
      const lastRow = Math.max(...createdAt.values());
      const firstRow = Math.min(...createdAt.values());
      const sseCount = sseFromPublication.length;
      const elapsedS = (Math.max(...streams.flatMap((st) => st.events.map((e) => e.at)), lastRow) - publishedAt) / 1000;
      lines.push(
        `${databaseUrl ? "PostgreSQL" : "PGlite"}, 1 instance (the built server, npm start's flags); ${orgCount} organisations × ${profilesPerOrg} profiles (${profileCount}), ${webhookCount} webhooks; ${who.length} SSE connections; BOE ${args.day} as today's (${docs.length} documents stored; watch every ${args["watch-seconds"]} s)`,
        `start to healthy on the populated database (warm start): ${ms(startToHealthyMs)}`,
        `documents stored ${s(firstRow - publishedAt)} to ${s(lastRow - publishedAt)} after publication (the sources' pace)`,
        `in-app alerts stored ${totalAlerts}; SSE events received ${sseCount} on ${streams.length} streams (${s(elapsedS * 1000)} from publication to the last; ${(sseCount / Math.max(1, elapsedS)).toFixed(1)}/s on average)`,
        `publication → SSE event: p50 ${s(percentile(sseFromPublication, 50))}, p95 ${s(percentile(sseFromPublication, 95))}, max ${s(percentile(sseFromPublication, 100))}`,
        `document stored → SSE event: p50 ${ms(percentile(sseFromRow, 50))}, p95 ${ms(percentile(sseFromRow, 95))}, max ${ms(percentile(sseFromRow, 100))}`,
        `webhooks received ${receiver.received.length} (deliveries sent ${hooks?.sent ?? 0}, not sent ${hooks?.pending ?? 0})`,
        `publication → webhook: p50 ${s(percentile(hookFromPublication, 50))}, p95 ${s(percentile(hookFromPublication, 95))}`,
        `document stored → webhook: p50 ${ms(percentile(hookFromRow, 50))}, p95 ${ms(percentile(hookFromRow, 95))}, max ${ms(percentile(hookFromRow, 100))}`,
        `streams: ${refused.length} refused (${refusedStatuses.join(" ") || "none"}), ${dropped.length} dropped before the end; alerts stored for a connected member and not received: ${missing}; received beyond those stored: ${extra}`,
        `server memory: peak RSS ${formatBytes(peak)} (with the streams open, before publication: ${formatBytes(rssStreams)}), RSS after the burst ${formatBytes(rssAfter)}; targets (issue 38) ${databaseUrl ? "peak < 170 MB" : "peak < 350 MB, after the burst < 250 MB"}`,
        `client (this process) during the run: event-loop utilisation ${(elu.utilization * 100).toFixed(0)} %, event-loop delay p99 ${ms(delay.percentile(99) / 1e6)}, max ${ms(delay.max / 1e6)}`,
        `load average at the end: ${loadavg()}`,
      );
      if (args.reference) {
        const perStream = Math.max(1, Math.ceil(sseCount / Math.max(1, streams.length)));
        log(`reference: a bare SSE server, ${streams.length} streams × ${perStream} events`);
        const ref = await reference(streams.length, perStream);
        lines.push(
          `reference (the same client against a bare SSE server): ${ref.received}/${ref.total} events in ${s(ref.seconds * 1000)} = ${ref.perSecond.toFixed(0)}/s, against ${(sseCount / Math.max(1, elapsedS)).toFixed(1)}/s needed here: ${ref.perSecond > (5 * sseCount) / Math.max(1, elapsedS) ? "the client outran the server" : "the client may have saturated"}`,
        );
      }
      const failed = refused.length + dropped.length + missing;
      lines.push(
        failed
          ? `FAILED: ${failed} refused/dropped streams or missing alerts`
          : "no stream refused or dropped; no alert missing",
      );
    } finally {
      await check.close();
    }
  } finally {
    memory.stop();
    await server.stop();
  }
} finally {
  await receiver.stop();
  await replay.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`\n${lines.join("\n")}\n`);
process.exit(lines.some((line) => line.startsWith("FAILED")) ? 1 : 0);
