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
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import { registerLaw } from "../app/.server/law-texts/store.ts";
import { pollConsolidated } from "../app/.server/sources/consolidated/poll.ts";
import { createSourceHttp } from "../app/.server/sources/http.ts";
import { madridDate } from "../app/lib/madrid-date.ts";
import { serverEnvironment } from "../server/runtime-flags.ts";
import { startInProcessServer } from "../tests/support/in-process-server.ts";
import { ingestedDay, startReplayProcess } from "../tests/support/replay-process.ts";
import { wrkAvailable } from "./bench-wrk.ts";

// The server's malloc settings (server/runtime-flags.ts) only apply from a process's start: this
// process runs the app, so it runs itself again with them.
if (Object.entries(serverEnvironment).some(([name, value]) => process.env[name] !== value)) {
  const again = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, ...serverEnvironment },
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
  },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error("Run through npm run bench:memory (it needs node --expose-gc and the server's flags).");
  process.exit(2);
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The process's resident memory by mapping kind, from /proc/self/smaps. */
function residentByMapping() {
  const smaps = readFileSync("/proc/self/smaps", "utf8").split("\n");
  let file = 0;
  let wasm = 0;
  let anonymous = 0;
  let current: { size: number; named: boolean } | undefined;
  for (const line of smaps) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1]?.trim() ?? "";
      current = { size: 0, named: name.startsWith("/") };
      continue;
    }
    const size = /^Size:\s+(\d+) kB/.exec(line);
    if (size && current) current.size = Number(size[1]) * 1024;
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) {
      const bytes = Number(rss[1]) * 1024;
      // A WebAssembly memory is reserved with guard regions: one mapping of several GiB.
      if (current.named) file += bytes;
      else if (current.size >= 4 * 1024 ** 3) wasm += bytes;
      else anonymous += bytes;
    }
  }
  return { file, wasm, anonymous };
}

function report(stage: string) {
  const before = process.memoryUsage();
  gc!();
  const after = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const maps = residentByMapping();
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
    `  by mapping: WebAssembly memory ${mb(maps.wasm)}, files (node, libraries) ${mb(maps.file)}, other anonymous (V8 heap, compiled code, malloc) ${mb(maps.anonymous)}`,
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
await replay.publish({ date: madridDate(), from: args.day, at: Date.now() });
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
  const { documents, seconds } = await ingestedDay(replay);
  report(`${args.day} ingested as today's: ${documents} documents in ${seconds.toFixed(0)} s`);
  // The largest recorded law (231 blocks, every version), polled as a followed law is (issue 38).
  const law = "BOE-A-1985-5392";
  const polled = performance.now();
  await registerLaw(server.app.database, law, "boe");
  await pollConsolidated(
    {
      database: server.app.database,
      http: createSourceHttp({ userAgent: "bench-memory", source: "boe", perSecond: 10_000, retries: 0 }),
      baseUrl: replay.url,
      log: { info() {}, warn() {} },
    },
    { only: [law] },
  );
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
}
