/**
 * `npm run bench:memory`: measures what the server measures. The server runs as plain JavaScript
 * without Node's type stripper (decision 0165); this script's own measuring code is TypeScript, so
 * it is bundled the same way (build/bench/bench-memory.js, at the depth its modules resolve paths
 * from) and run with type stripping off, with this process's V8 flags. Options: see
 * scripts/bench-memory-run.ts.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { serverEntryFlags } from "../server/runtime-flags.ts";
import { bundleNodeEntry, projectRoot } from "./bundle-node.ts";

const bundled = "build/bench/bench-memory.js";
await bundleNodeEntry("scripts/bench-memory-run.ts", bundled);
const run = spawnSync(
  process.execPath,
  [...process.execArgv, ...serverEntryFlags, path.join(projectRoot, bundled), ...process.argv.slice(2)],
  { stdio: "inherit" },
);
process.exit(run.status ?? 1);
