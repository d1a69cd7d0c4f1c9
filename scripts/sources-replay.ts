/**
 * npm run sources:replay [-- --port N] [--root DIR] [--control] [--today-from YYYY-MM-DD]:
 * serves the recorded source payloads at their real URL paths on 127.0.0.1 and prints the
 * variables to point the platform at it. Every request's arrival time and source is logged;
 * on exit (Ctrl-C) it prints, per source, the requests and the most inside any one second
 * (the politeness promise: at most 2). --control adds the /__replay/ routes (log, publish,
 * reset; see replay.ts) for tests and benchmarks that run it as a separate process.
 * --today-from serves that recorded day's summary as today's (Europe/Madrid).
 */
import { parseArgs } from "node:util";
import {
  busiestWindow,
  ReplayFixturesError,
  type ReplaySource,
  startReplayServer,
} from "../app/.server/sources/replay.ts";
import { madridDate } from "../app/lib/madrid-date.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    root: { type: "string" },
    control: { type: "boolean", default: false },
    "today-from": { type: "string" },
  },
});
const port = values.port ? Number(values.port) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, got "${values.port}"`);
  process.exit(2);
}
let replay: Awaited<ReturnType<typeof startReplayServer>>;
try {
  replay = await startReplayServer({
    port,
    control: values.control,
    ...(values.root ? { root: values.root } : {}),
  });
} catch (error) {
  if (!(error instanceof ReplayFixturesError)) throw error;
  console.error(`sources:replay cannot start: ${error.message}`);
  process.exit(1);
}
if (values["today-from"]) {
  const today = madridDate();
  replay.publish({ date: today, from: values["today-from"] });
}
console.log(`Replay server at ${replay.url}`);
console.log(
  `BOE_API_URL=${replay.url} EURLEX_URL=${replay.url} CELLAR_URL=${replay.url} CELLAR_SPARQL_URL=${replay.sparqlUrl}`,
);
const stop = () => {
  for (const source of ["boe", "eurlex", "cellar"] satisfies ReplaySource[]) {
    const count = replay.log.filter((r) => r.source === source).length;
    if (count > 0)
      console.log(`${source}: ${count} requests, at most ${busiestWindow(replay.log, source).count} in one second`);
  }
  void replay.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
