/**
 * Load test: the home pages and POST /mail/send at once against one instance on the embedded
 * database, or several instances sharing one PostgreSQL; then every accepted lead is checked to
 * be stored once and mailed once. Loopback only, bounded in time. --help for options.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { madridDate } from "../app/lib/madrid-date.ts";
import { ingestedDay, type ReplayProcess, startReplayProcess } from "../tests/support/replay-process.ts";
import { projectRoot } from "../tests/support/server.ts";
import {
  contactFormHiddenFields,
  contactHeaders,
  contactRequest,
  formatBytes,
  type MeasuredServer,
  percentile,
  rawRequest,
  renderTable,
  sleep,
  startMeasuredServer,
} from "./bench-lib.ts";
import { startSmtpSink } from "./bench-smtp-sink.ts";
import { targets } from "./budgets.ts";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "60" },
    instances: { type: "string", default: "1" },
    "database-url": { type: "string" },
    "page-connections": { type: "string", default: "8" },
    "mail-connections": { type: "string", default: "4" },
    "drain-timeout": { type: "string", default: "60" },
    "skip-build": { type: "boolean", default: false },
    record: { type: "boolean", default: false },
    "ingest-day": { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (args.help) {
  console.log(`npm run loadtest -- [options]
  --duration <s>            seconds of load (60)
  --instances <n>           server processes (1); more than one needs --database-url
  --database-url <url>      postgres://… shared by the instances (default: embedded PGlite)
  --page-connections <n>    concurrent clients on / and /en (8)
  --mail-connections <n>    concurrent clients on POST /mail/send (4)
  --drain-timeout <s>       how long to wait for the mail of accepted leads (60)
  --skip-build              use the existing build/
  --ingest-day <date>       first ingest a recorded BOE day (e.g. 2026-09-29) as today's, from the
                            source replay, in the server process itself; then the load
  --record                  write the results into docs/performance.md under "Load test"`);
  process.exit(0);
}
const durationMs = Number(args.duration) * 1000;
const instanceCount = Math.max(1, Number(args.instances));
const databaseUrl = args["database-url"];
if (instanceCount > 1 && !databaseUrl) {
  console.error("--instances above 1 needs --database-url: PGlite is one process's database");
  process.exit(2);
}
if (databaseUrl && !/^postgres(ql)?:\/\/[^/]*(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(databaseUrl)) {
  console.error("--database-url must point at a loopback PostgreSQL (127.0.0.1 or localhost)");
  process.exit(2);
}
const mode = `${instanceCount} instance${instanceCount > 1 ? "s" : ""}, ${databaseUrl ? "PostgreSQL" : "PGlite"}`;

/** Latencies and answers of one endpoint. */
class EndpointStats {
  readonly latencies: number[] = [];
  readonly statuses = new Map<string, number>();
  readonly samples: string[] = [];
  errors = 0;
  private readonly expected: number[];

  constructor(expected: number[]) {
    this.expected = expected;
  }

  record(status: number | string, ms: number, body?: string): void {
    this.latencies.push(ms);
    this.statuses.set(String(status), (this.statuses.get(String(status)) ?? 0) + 1);
    // Redirects count as answers; anything else outside the expected statuses is a failure.
    const ok = typeof status === "number" && (this.expected.includes(status) || (status >= 300 && status < 400));
    if (!ok) {
      this.errors++;
      if (this.samples.length < 3) this.samples.push(`${status} ${body?.slice(0, 300) ?? ""}`);
    }
  }

  row(name: string, durationMs: number): string[] {
    const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
    return [
      name,
      String(this.latencies.length),
      (this.latencies.length / (durationMs / 1000)).toFixed(0),
      String(this.errors),
      ms(percentile(this.latencies, 50)),
      ms(percentile(this.latencies, 99)),
      [...this.statuses].map(([status, count]) => `${status}×${count}`).join(" "),
    ];
  }
}

const loadTestIntro = `\`npm run loadtest\` drives the home pages (\`/\`, \`/en\`) and \`POST /mail/send\` at the same time
against the built server on loopback, for 60 s by default (\`--duration\` shortens it), with the contact rate
limits raised for the run and an in-process SMTP server (\`smtp-server\`) as the mail peer. Each request counts as
failed when it gets a socket error or a status other than the expected one (200 for pages, 201 for contact
requests; redirects are answers). Afterwards it checks that every contact request answered 201 is stored exactly
once (the contact requests table, matched by the run's unique sender addresses) and mailed exactly once (messages
matched by Reply-To; duplicate Message-IDs count too). It exits 1 on any failed request, lost or duplicated
lead, or a server process whose peak RSS reaches 250 MB.

- One instance on the embedded database: \`npm run loadtest\`.
- Two instances sharing one PostgreSQL: \`source scripts/pg-throwaway.sh; PG_PORT=55610 pg_throwaway_start\`, then
  \`npm run loadtest -- --instances 2 --database-url "$TEST_DATABASE_URL"\`, then \`pg_throwaway_stop\`.
- \`--record\` writes the result below; \`--help\` lists the other options.`;

function log(message: string): void {
  process.stderr.write(`[loadtest] ${message}\n`);
}

if (!args["skip-build"]) {
  log("npm run build");
  const build = spawnSync("npm", ["run", "build"], { cwd: projectRoot, stdio: ["ignore", "ignore", "inherit"] });
  if (build.status !== 0) throw new Error("npm run build failed");
}

const runId = Date.now().toString(36);
const sink = await startSmtpSink();
const ingestDay = args["ingest-day"];
let replay: ReplayProcess | undefined;
let ingestLine = "";
if (ingestDay) {
  // The recorded day is published as today's: the server's own jobs fetch it on start.
  replay = await startReplayProcess();
  await replay.publish({ date: madridDate(), from: ingestDay, at: Date.now() });
}
const instances: (MeasuredServer & { dataDir: string })[] = [];
const formSecret = `loadtest-${runId}-${"x".repeat(32)}`;
let exitCode = 0;

try {
  // One after the other, so concurrent migrations are not part of the test.
  for (let i = 0; i < instanceCount; i++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `loadtest-${i}-`));
    const started = await startMeasuredServer(
      {
        SMTP_URL: sink.url,
        DATABASE_URL: databaseUrl,
        FORM_SECRET: formSecret,
        ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
        ...(replay ? { INGEST_SOURCES: "boe", BOE_API_URL: replay.url } : { INGEST_SOURCES: "none" }),
      },
      dataDir,
    );
    instances.push({ ...started, dataDir });
    log(`instance ${i} on ${started.server.url} (${started.startToHealthyMs.toFixed(0)} ms to healthy)`);
  }

  if (replay) {
    const { documents, seconds } = await ingestedDay(replay);
    const peaks = instances.map((instance, i) => `instance ${i} ${formatBytes(instance.memory.peakBytes)}`);
    ingestLine = `Ingestion of the recorded day ${ingestDay} first: ${documents} documents fetched in ${seconds.toFixed(0)} s; peak RSS by its end: ${peaks.join(", ")}.`;
    log(ingestLine);
  }

  const home = await rawRequest(`${instances[0]!.server.url}/`, { headers: { "accept-language": "es-ES,es" } });
  const hidden = contactFormHiddenFields(home.body.toString("utf8"));
  // The form's time trap treats a submission within 2 s of the page as a bot's (answered 201,
  // never stored): like a person filling the form, wait before the first one.
  await new Promise((resolve) => setTimeout(resolve, 2_500));

  const endpoints = {
    "GET /": new EndpointStats([200]),
    "GET /en": new EndpointStats([200]),
    "POST /mail/send": new EndpointStats([201]),
  };
  const accepted = new Set<string>();
  let sent = 0;
  const deadline = performance.now() + durationMs;
  const agents = instances.map(() => new http.Agent({ keepAlive: true }));
  let pageTurn = 0;
  let mailTurn = 0;

  async function pageClient(): Promise<void> {
    while (performance.now() < deadline) {
      // Spread over instances first, then alternate the pages, so each instance serves both.
      const k = pageTurn++;
      const i = k % instances.length;
      const english = Math.floor(k / instances.length) % 2 === 1;
      await timed(endpoints[english ? "GET /en" : "GET /"], () =>
        rawRequest(instances[i]!.server.url + (english ? "/en" : "/"), {
          agent: agents[i],
          headers: { "accept-encoding": "br, gzip", "accept-language": english ? "en-US,en;q=0.9" : "es-ES,es;q=0.9" },
        }),
      );
    }
  }

  async function mailClient(): Promise<void> {
    while (performance.now() < deadline) {
      const i = mailTurn++ % instances.length;
      const n = sent++;
      const body = contactRequest(runId, n, hidden);
      const res = await timed(endpoints["POST /mail/send"], () =>
        rawRequest(`${instances[i]!.server.url}/mail/send`, {
          method: "POST",
          agent: agents[i],
          headers: contactHeaders(instances[i]!.server.url),
          body: JSON.stringify(body),
        }),
      );
      if (res?.status === 201) accepted.add(body.email!);
    }
  }

  log(`${mode}: ${args.duration} s of load`);
  await Promise.all([
    ...Array.from({ length: Number(args["page-connections"]) }, pageClient),
    ...Array.from({ length: Number(args["mail-connections"]) }, mailClient),
  ]);
  for (const agent of agents) agent.destroy();

  // Mail leaves through the outbox after the 201: wait until every accepted lead has one.
  const mailed = () =>
    countMail(
      sink.messages,
      instances.map((instance) => instance.dataDir),
    );
  const drainDeadline = performance.now() + Number(args["drain-timeout"]) * 1000;
  if (accepted.size > 0) log(`waiting for the mail of ${accepted.size} accepted leads`);
  while (accepted.size > 0 && performance.now() < drainDeadline) {
    const counts = mailed().byEmail;
    if ([...accepted].every((email) => (counts.get(email) ?? 0) >= 1)) break;
    await sleep(500);
  }
  if (accepted.size > 0) await sleep(2000); // a late duplicate would show up here

  const peaks = instances.map((instance) => instance.memory.stop());
  for (const instance of instances) await instance.server.stop();
  const mail = mailed();
  const leadReport = await checkLeads(accepted, mail);

  const rows = Object.entries(endpoints).map(([name, stats]) => stats.row(name, durationMs));
  const memoryLine = peaks
    .map(
      (peak, i) => `instance ${i}: ${formatBytes(peak)}${peak >= targets.loadtestMaxRssBytes ? " (over limit)" : ""}`,
    )
    .join(", ");
  const failures = Object.values(endpoints).reduce((sum, stats) => sum + stats.errors, 0);
  const report = [
    `${mode}; ${args.duration} s; ${args["page-connections"]} page and ${args["mail-connections"]} mail clients; ${new Date().toISOString().slice(0, 10)}`,
    "",
    renderTable(["endpoint", "requests", "req/s", "errors", "p50", "p99", "statuses"], rows),
    "",
    ...(ingestLine ? [ingestLine] : []),
    `Peak RSS: ${memoryLine} (limit ${formatBytes(targets.loadtestMaxRssBytes)}).`,
    `Leads: ${leadReport.summary}`,
  ].join("\n");
  console.log(`\n${report}`);
  for (const stats of Object.values(endpoints)) for (const sample of stats.samples) log(`unexpected answer: ${sample}`);

  if (failures > 0) log(`FAIL: ${failures} failed requests`);
  if (!leadReport.ok) log("FAIL: lost or duplicated leads");
  if (peaks.some((peak) => peak >= targets.loadtestMaxRssBytes)) log("FAIL: memory at or over the limit");
  exitCode = failures > 0 || !leadReport.ok || peaks.some((peak) => peak >= targets.loadtestMaxRssBytes) ? 1 : 0;
  if (args.record) recordInOperationsDoc(report, exitCode === 0);
} finally {
  for (const instance of instances) {
    instance.memory.stop();
    await instance.server.stop();
    rmSync(instance.dataDir, { recursive: true, force: true });
  }
  await sink.close();
  await replay?.stop();
}
process.exit(exitCode);

async function timed(
  stats: EndpointStats,
  send: () => Promise<{ status: number; body: Buffer }>,
): Promise<{ status: number } | undefined> {
  const started = performance.now();
  try {
    const res = await send();
    stats.record(res.status, performance.now() - started, res.status >= 400 ? res.body.toString("utf8") : undefined);
    return res;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    stats.record(`socket error ${code}`, performance.now() - started);
    return undefined;
  }
}

interface MailCount {
  /** Messages per sender address of this run (Reply-To carries it). */
  byEmail: Map<string, number>;
  total: number;
  duplicateMessageIds: number;
}

/** Messages received by the SMTP sink plus any .eml files the instances wrote. */
function countMail(sinkMessages: readonly string[], dataDirs: readonly string[]): MailCount {
  const headerBlocks = [...sinkMessages];
  for (const dir of dataDirs) {
    const mailDir = path.join(dir, "mail");
    if (!existsSync(mailDir)) continue;
    for (const entry of readdirSync(mailDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith(".eml")) continue;
      const raw = readFileSync(path.join(entry.parentPath, entry.name), "utf8");
      const end = raw.search(/\r?\n\r?\n/);
      headerBlocks.push(end < 0 ? raw : raw.slice(0, end));
    }
  }
  const pattern = new RegExp(`bench-${runId}-\\d+@example\\.com`, "g");
  const byEmail = new Map<string, number>();
  const messageIds = new Map<string, number>();
  for (const headers of headerBlocks) {
    for (const email of new Set(headers.match(pattern) ?? [])) byEmail.set(email, (byEmail.get(email) ?? 0) + 1);
    const id = /^message-id:\s*(.+)$/im.exec(headers)?.[1]?.trim();
    if (id) messageIds.set(id, (messageIds.get(id) ?? 0) + 1);
  }
  const duplicateMessageIds = [...messageIds.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);
  return { byEmail, total: headerBlocks.length, duplicateMessageIds };
}

interface Queryable {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  close(): Promise<void>;
}

/** The contact table's database: the shared PostgreSQL, or the PGlite files in the instance's DATA_DIR. */
async function openDatabase(): Promise<Queryable | undefined> {
  if (databaseUrl) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return {
      query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as T[] }),
      close: () => client.end(),
    };
  }
  const pgliteDir = findPgliteDir(instances[0]!.dataDir);
  if (!pgliteDir) return undefined;
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(pgliteDir);
  return {
    query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await db.query<T>(sql, params)).rows }),
    close: () => db.close(),
  };
}

function findPgliteDir(dir: string): string | undefined {
  if (existsSync(path.join(dir, "PG_VERSION"))) return dir;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const found = findPgliteDir(path.join(dir, entry.name));
    if (found) return found;
  }
  return undefined;
}

/** Every 201 stored exactly once and mailed exactly once; tolerant of a database without the table yet. */
async function checkLeads(acceptedEmails: Set<string>, mail: MailCount): Promise<{ ok: boolean; summary: string }> {
  const db = await openDatabase().catch((error: unknown) => {
    log(`could not open the database: ${(error as Error).message}`);
    return undefined;
  });
  if (!db) return { ok: true, summary: `lead check skipped (no database found); ${acceptedEmails.size} accepted` };
  try {
    // The contact requests table: the one with an email column whose name says contact, lead or demo.
    const { rows: tables } = await db.query<{ table_name: string }>(
      `select c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.column_name = 'email' and t.table_type = 'BASE TABLE'
         and c.table_schema not in ('pg_catalog', 'information_schema')
       order by c.table_name`,
    );
    const table = tables
      .map((row) => row.table_name)
      .find((name) => /contact|lead|demo|request/i.test(name) && !/outbox|mail|job|rate|limit/i.test(name));
    if (!table) {
      return {
        ok: true,
        summary: `lead check skipped (no contact requests table yet); ${acceptedEmails.size} accepted`,
      };
    }
    const { rows } = await db.query<{ email: string; n: number }>(
      `select email, count(*)::int as n from "${table.replaceAll('"', '""')}" where email like $1 group by email`,
      [`bench-${runId}-%@example.com`],
    );
    const stored = new Map(rows.map((row) => [row.email, Number(row.n)]));
    const problems: string[] = [];
    const count = (predicate: (email: string) => boolean, emails: Iterable<string>) =>
      [...emails].filter(predicate).length;
    const notStored = count((email) => !stored.has(email), acceptedEmails);
    const storedTwice = count((email) => (stored.get(email) ?? 0) > 1, acceptedEmails);
    const storedWithout201 = count((email) => !acceptedEmails.has(email), stored.keys());
    const notMailed = count((email) => !mail.byEmail.has(email), acceptedEmails);
    const mailedTwice = count((email) => (mail.byEmail.get(email) ?? 0) > 1, acceptedEmails);
    const mailedWithout201 = count((email) => !acceptedEmails.has(email), mail.byEmail.keys());
    if (notStored) problems.push(`${notStored} accepted but not stored`);
    if (storedTwice) problems.push(`${storedTwice} stored more than once`);
    if (notMailed) problems.push(`${notMailed} accepted but not mailed`);
    if (mailedTwice) problems.push(`${mailedTwice} mailed more than once`);
    if (mail.duplicateMessageIds) problems.push(`${mail.duplicateMessageIds} duplicate Message-IDs`);
    // Stored or mailed without a 201 is not a lost lead (e.g. the client timed out), but worth knowing.
    const notes = [
      storedWithout201 ? `${storedWithout201} stored without a 201 seen` : "",
      mailedWithout201 ? `${mailedWithout201} mailed without a 201 seen` : "",
    ].filter(Boolean);
    const base = `${acceptedEmails.size} accepted, ${stored.size} stored (table ${table}), ${mail.total} messages`;
    const extra = notes.length ? `; ${notes.join(", ")}` : "";
    return problems.length === 0
      ? { ok: true, summary: `0 lost or duplicated leads (${base}${extra})` }
      : { ok: false, summary: `${problems.join(", ")} (${base}${extra})` };
  } finally {
    await db.close();
  }
}

/** Replaces this mode's block under "## Load test" in docs/performance.md (creating what is missing). */
function recordInOperationsDoc(report: string, passed: boolean): void {
  const file = path.join(projectRoot, "docs/performance.md");
  const key = `${instanceCount}-${databaseUrl ? "postgresql" : "pglite"}`;
  const block = [
    `<!-- loadtest:${key} -->`,
    `### ${mode}${passed ? "" : " (failed)"}`,
    "",
    "`npm run loadtest" +
      (databaseUrl ? ` -- --instances ${instanceCount} --database-url postgres://…` : "") +
      "` on a 2-core machine shared with other work, so the figures are indicative.",
    "",
    report,
    `<!-- /loadtest:${key} -->`,
  ].join("\n");
  let doc = existsSync(file) ? readFileSync(file, "utf8") : "";
  const heading = "## Load test";
  if (!doc.includes(heading)) {
    doc = `${doc.trimEnd()}${doc ? "\n\n" : "# Operations\n\n"}${heading}\n\n${loadTestIntro}\n`;
  }
  const existing = new RegExp(`<!-- loadtest:${key} -->[\\s\\S]*?<!-- /loadtest:${key} -->`);
  if (existing.test(doc)) doc = doc.replace(existing, block);
  else {
    // Append at the end of the Load test section (before the next level-2 heading, if any).
    const start = doc.indexOf(heading) + heading.length;
    const next = doc.indexOf("\n## ", start);
    const at = next < 0 ? doc.length : next;
    doc = `${doc.slice(0, at).trimEnd()}\n\n${block}\n${doc.slice(at)}`;
  }
  writeFileSync(file, `${doc.trimEnd()}\n`);
  log(`recorded in ${path.relative(projectRoot, file)}`);
}
