/**
 * npm run sources:replay [-- --port N] [--root DIR]: serves the recorded source payloads at
 * their real URL paths on 127.0.0.1 and prints the variables to point the platform at it.
 */
import { parseArgs } from "node:util";
import { ReplayFixturesError, startReplayServer } from "../app/.server/sources/replay.ts";

const { values } = parseArgs({ options: { port: { type: "string" }, root: { type: "string" } } });
const port = values.port ? Number(values.port) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, got "${values.port}"`);
  process.exit(2);
}
let replay: Awaited<ReturnType<typeof startReplayServer>>;
try {
  replay = await startReplayServer({ port, ...(values.root ? { root: values.root } : {}) });
} catch (error) {
  if (!(error instanceof ReplayFixturesError)) throw error;
  console.error(`sources:replay cannot start: ${error.message}`);
  process.exit(1);
}
console.log(`Replay server at ${replay.url}`);
console.log(
  `BOE_API_URL=${replay.url} EURLEX_URL=${replay.url} CELLAR_URL=${replay.url} CELLAR_SPARQL_URL=${replay.sparqlUrl}`,
);
const stop = () => void replay.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
