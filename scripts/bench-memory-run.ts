/**
 * Where one server process's memory goes (issue 20, decision 0006): `npm run bench:memory`
 * [-- --database-url postgres://… --day 2026-09-29 --seconds 60 --first-start].
 *
 * Runs the built app in this process, with the server's V8 flags, on PGlite (default) or
 * PostgreSQL, restarted on a database a first start made in a helper process (`--first-start`:
 * this process makes it); ingests a recorded BOE day as today's from the source replay (the app's own jobs,
 * politely paced), polls the largest recorded law (BOE-A-1985-5392), then drives GET / and /en with
 * wrk for `--seconds`. At each stage it prints the
 * resident set split by what holds it: V8's heap (used, and live after a full collection), other
 * memory V8 knows of (buffers, WebAssembly memory), the WebAssembly memory's own mapping (PGlite:
 * PostgreSQL compiled to WebAssembly), code and data mapped from files, and the rest (malloc).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import { sql } from "drizzle-orm";
import { madridDate } from "../app/lib/madrid-date.ts";
import { serverEnvironment } from "../server/runtime-flags.ts";
import { startInProcessServer } from "../tests/support/in-process-server.ts";
import { ingestedDay, startReplayProcess } from "../tests/support/replay-process.ts";
import { wrkAvailable } from "./bench-wrk.ts";

// The server's malloc settings (server/runtime-flags.ts) only apply from a process's start: this
// process runs the app, so it runs itself again with them. NODE_ENV=production as server/main.ts
// sets it: React and React Router load their production builds (without it this process measured
// React's development builds, which no server runs).
const environment = { ...serverEnvironment, NODE_ENV: "production" };
if (Object.entries(environment).some(([name, value]) => process.env[name] !== value)) {
  const again = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, ...environment },
  });
  process.exit(again.status ?? 1);
}

const { values: args } = parseArgs({
  options: {
    "database-url": { type: "string" },
    day: { type: "string", default: "2026-09-29" },
    seconds: { type: "string", default: "60" },
    "first-start": { type: "boolean", default: false },
    "create-only": { type: "string" },
    /** Write a V8 heap snapshot at each stage into this directory (investigation; it raises the peak). */
    snapshots: { type: "string" },
    /** Leave out the day's ingestion (investigating the law poll alone). */
    "skip-day": { type: "boolean", default: false },
  },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error("Run through npm run bench:memory (it needs node --expose-gc and the server's flags).");
  process.exit(2);
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * The process's resident memory by mapping kind, from /proc/self/smaps. A WebAssembly memory (PGlite)
 * is one accessible mapping followed by its guard region (anonymous, adjacent, several GiB); malloc's
 * main arena is "[heap]"; executable anonymous mappings hold compiled code (PGlite's WebAssembly
 * compiled by V8, JavaScript's optimised code); the rest is V8's heap and the other malloc arenas.
 */
function residentByMapping() {
  const smaps = readFileSync("/proc/self/smaps", "utf8").split("\n");
  const mappings: { start: bigint; end: bigint; perms: string; name: string; rss: number }[] = [];
  for (const line of smaps) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      mappings.push({
        start: BigInt(`0x${header[1]}`),
        end: BigInt(`0x${header[2]}`),
        perms: header[3] ?? "",
        name: header[4]?.trim() ?? "",
        rss: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    const current = mappings.at(-1);
    if (rss && current) current.rss = Number(rss[1]) * 1024;
  }
  let file = 0;
  let wasm = 0;
  let mallocHeap = 0;
  let anonymous = 0;
  let code = 0;
  const guard = 4n * 1024n ** 3n;
  mappings.forEach((m, i) => {
    const next = mappings[i + 1];
    if (m.name.startsWith("/")) file += m.rss;
    else if (m.name === "[heap]") mallocHeap += m.rss;
    else if (m.name === "" && next && next.name === "" && next.start === m.end && next.end - next.start >= guard)
      wasm += m.rss;
    else if (m.name === "" && m.perms.includes("x")) code += m.rss;
    else anonymous += m.rss;
  });
  return { file, wasm, mallocHeap, code, anonymous };
}

let stageNumber = 0;
function report(stage: string) {
  const before = process.memoryUsage();
  gc!();
  const after = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const maps = residentByMapping();
  if (args.snapshots) v8.writeHeapSnapshot(path.join(args.snapshots, `${++stageNumber}.heapsnapshot`));
  console.log(`\n${stage}`);
  console.log(`  RSS ${mb(before.rss)} (peak so far ${mb(process.resourceUsage().maxRSS * 1024)})`);
  const code = v8
    .getHeapSpaceStatistics()
    .filter((space) => space.space_name.includes("code"))
    .reduce((sum, space) => sum + space.physical_space_size, 0);
  console.log(
    `  V8 heap: ${mb(before.heapUsed)} used of ${mb(before.heapTotal)} (${mb(heap.total_physical_size)} resident, code spaces ${mb(code)}), ${mb(after.heapUsed)} live after a full collection`,
  );
  console.log(`  outside the V8 heap, known to V8: ${mb(before.external)} (array buffers ${mb(before.arrayBuffers)})`);
  console.log(
    `  by mapping: WebAssembly memory ${mb(maps.wasm)}, files (node, libraries) ${mb(maps.file)}, malloc's main arena ${mb(maps.mallocHeap)}, executable (compiled WebAssembly and JavaScript) ${mb(maps.code)}, other anonymous (V8 heap, other arenas) ${mb(maps.anonymous)}`,
  );
}

const databaseUrl = args["database-url"];
if (args["create-only"]) {
  // The helper run: create and migrate the database in DATA_DIR, then say what that took.
  const created = await startInProcessServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {}, {
    inMemory: false,
    dataDir: args["create-only"],
  });
  await created.stop();
  console.log(JSON.stringify({ peakBytes: process.resourceUsage().maxRSS * 1024 }));
  process.exit(0);
}
// A server normally opens a database made on an earlier start: unless --first-start, a helper
// process creates and migrates it first, and this process measures a restart.
let dataDir: string | undefined;
if (!args["first-start"]) {
  dataDir = mkdtempSync(path.join(tmpdir(), "bench-memory-"));
  const helper = spawnSync(
    process.execPath,
    [
      ...process.execArgv,
      import.meta.filename,
      "--create-only",
      dataDir,
      ...(databaseUrl ? ["--database-url", databaseUrl] : []),
    ],
    { encoding: "utf8" },
  );
  const created = /\{"peakBytes":(\d+)\}/.exec(helper.stdout);
  if (!created) throw new Error(`the helper did not create the database:\n${helper.stdout}\n${helper.stderr}`);
  console.log(`first start (a helper process: create and migrate the database): peak RSS ${mb(Number(created[1]))}`);
}
const replay = await startReplayProcess();
if (!args["skip-day"]) await replay.publish({ date: madridDate(), from: args.day, at: Date.now() });
report("before the app starts");
const server = await startInProcessServer(
  {
    NODE_ENV: "production",
    INGEST_SOURCES: "boe",
    BOE_API_URL: replay.url,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  },
  { inMemory: false, ...(dataDir ? { dataDir } : {}) },
);
try {
  report(`app ${dataDir ? "restarted" : "started for the first time"} on ${databaseUrl ? "PostgreSQL" : "PGlite"}`);
  if (!args["skip-day"]) {
    const { documents, seconds } = await ingestedDay(replay);
    report(`${args.day} ingested as today's: ${documents} documents in ${seconds.toFixed(0)} s`);
  }
  // The largest recorded law (231 blocks, every version), polled as a followed law is (issue 38):
  // followed by a profile, then the server's own job (the "boe-laws" source, run now) polls it.
  // Through the built app's code, not a second copy of the sources' modules in this process (an
  // earlier form imported poll.ts here: 5.6 MB of V8 heap and about 40 MB of RSS that no server holds).
  const law = "BOE-A-1985-5392";
  const polled = performance.now();
  const database = server.app.database;
  await database.rows(sql`insert into laws (id, source, title) values (${law}, 'boe', ${law}) on conflict do nothing`);
  await database.rows(sql`insert into alert_profiles (id, organization_id, user_id, name, law_id)
    values (gen_random_uuid(), 'bench-memory', 'bench-memory', 'Ley seguida', ${law})`);
  // A poll the start queued may still hold the source's one slot ("run now" is refused meanwhile,
  // and that poll began before the law was followed): ask again until the jobs take it.
  let queued = await server.app.ingestJobs?.runSourceNow("boe-laws");
  while (!queued && performance.now() - polled < 120_000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    queued = await server.app.ingestJobs?.runSourceNow("boe-laws");
  }
  if (!queued) throw new Error("the server's ingestion jobs did not take the law poll in 2 minutes");
  for (;;) {
    const [row] = await database.rows<{ checked: boolean }>(
      sql`select checked_at is not null as checked from laws where id = ${law}`,
    );
    if (row?.checked) break;
    if (performance.now() - polled > 600_000) throw new Error("the law poll did not finish in 10 minutes");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  report(`law poll of ${law}, the largest recorded law: ${((performance.now() - polled) / 1000).toFixed(1)} s`);
  if (wrkAvailable()) {
    const half = Math.max(1, Math.round(Number(args.seconds) / 2));
    for (const [page, language] of [
      ["/", "es-ES,es;q=0.9"],
      ["/en", "en-GB,en;q=0.9"],
    ] as const) {
      // wrk in its own process; the app answers in this one, so wait without blocking.
      await new Promise<void>((resolve, reject) => {
        const wrk = spawn(
          process.env.WRK_PATH ?? "wrk",
          [
            "-t1",
            "-c50",
            `-d${half}s`,
            "-H",
            "Accept-Encoding: br",
            "-H",
            `Accept-Language: ${language}`,
            server.url + page,
          ],
          { stdio: "ignore" },
        );
        wrk.once("exit", () => resolve());
        wrk.once("error", reject);
      });
    }
    report(`after ${args.seconds} s of GET / and /en (wrk, 50 connections)`);
  } else {
    console.log("\n(wrk not installed: no load stage; apt-get install -y wrk)");
  }
} finally {
  await server.stop();
  await replay.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
