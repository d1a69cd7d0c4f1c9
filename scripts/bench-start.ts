/**
 * Start to healthy on the embedded database, warm (issue 38): `npm run bench:start [-- --runs 7
 * --compare /path/to/another/checkout]`.
 *
 * A first start makes and migrates the database under a temporary DATA_DIR (not timed); then the
 * built server is started `--runs` times on it, each with the production flags and environment
 * (server/runtime-flags.ts, as `npm start`), and timed from spawn to the first 200 from /healthz
 * (polled every 10 ms), then stopped with SIGTERM. With `--compare`, the other checkout (built,
 * with its own node_modules) is started the same way on a database of its own, alternating with
 * this one (this, other, this, other…), so that the machine's load weighs on both alike. Prints
 * each start, the median, min and max, and the load average before and after.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort, projectRoot } from "../tests/support/server.ts";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "7" },
    compare: { type: "string" },
  },
});
const runs = Number(args.runs);
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

interface Tree {
  name: string;
  root: string;
  entry: string;
  flags: string[];
  environment: Record<string, string>;
  dataDir: string;
  times: number[];
  cpu: number[];
}

async function treeOf(root: string, name: string): Promise<Tree> {
  const flagsModule = (await import(path.join(root, "server/runtime-flags.ts"))) as {
    serverNodeFlags: readonly string[];
    serverEnvironment?: Record<string, string>;
    /** Trees from decision 0165 on run the built entry; older ones server/main.ts. */
    serverEntry?: string;
    serverEntryFlags?: readonly string[];
  };
  return {
    name,
    root,
    entry: flagsModule.serverEntry ?? "server/main.ts",
    flags: [...flagsModule.serverNodeFlags, ...(flagsModule.serverEntryFlags ?? [])],
    environment: { ...(flagsModule.serverEnvironment ?? {}) },
    dataDir: mkdtempSync(path.join(tmpdir(), "bench-start-")),
    times: [],
    cpu: [],
  };
}

function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/healthz`, { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
  });
}

/** CPU time (user + system, all threads) the process has used, in ms, from /proc (100 ticks a second). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * One start of the tree's server on its DATA_DIR: milliseconds from spawn to healthy, and the CPU
 * time the process used until then (on a machine shared with other work, the wall time stretches
 * with the load; the CPU time much less).
 */
async function start(tree: Tree): Promise<{ ms: number; cpu: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const node = path.join(tree.root, "node_modules/node/bin/node");
  const spawnedAt = performance.now();
  const child = spawn(node, [...tree.flags, path.join(tree.root, tree.entry)], {
    cwd: tree.root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...tree.environment,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      SITE_URL: url,
      DATA_DIR: tree.dataDir,
      LOG_LEVEL: "warn",
      INGEST_SOURCES: "none",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${tree.name}: the server exited (${child.exitCode}): ${errors}`);
      if (await healthy(url)) return { ms: performance.now() - spawnedAt, cpu: cpuMs(child.pid!) };
      if (performance.now() - spawnedAt > 300_000) throw new Error(`${tree.name}: not healthy in 5 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

const trees = [await treeOf(projectRoot, "this checkout")];
if (args.compare) trees.push(await treeOf(path.resolve(args.compare), path.resolve(args.compare)));
const first = loadavg();
try {
  // The first start of each makes the database (initdb, migrations): not a warm start, not timed.
  for (const tree of trees) await start(tree);
  for (let run = 0; run < runs; run++) {
    for (const tree of trees) {
      const { ms, cpu } = await start(tree);
      tree.times.push(ms);
      tree.cpu.push(cpu);
      process.stderr.write(`${tree.name}: start ${run + 1}: ${ms.toFixed(0)} ms, CPU ${cpu} ms (load ${loadavg()})\n`);
    }
  }
} finally {
  for (const tree of trees) rmSync(tree.dataDir, { recursive: true, force: true });
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
console.log(
  `\nwarm start to healthy, PGlite, ${runs} starts each${trees.length > 1 ? ", alternating" : ""}; load average ${first} before, ${loadavg()} after`,
);
for (const tree of trees) {
  console.log(
    `${tree.name} (${tree.flags.join(" ")}): median ${median(tree.times).toFixed(0)} ms, min ${Math.min(...tree.times).toFixed(0)}, max ${Math.max(...tree.times).toFixed(0)} (${tree.times.map((t) => t.toFixed(0)).join(", ")}); CPU time to healthy median ${median(tree.cpu).toFixed(0)} ms (${tree.cpu.join(", ")}); target < 2,000 ms`,
  );
}
