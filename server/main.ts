/** Entry point of the production server: configuration, services, HTTP, graceful shutdown. */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { ConfigError, describeConfig, loadConfig } from "../app/.server/config.ts";
import { createLogger } from "../app/.server/logger.ts";
import { limits } from "./limits.ts";
import { createServices } from "./services.ts";

const startedAt = performance.now();

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

// React and React Router pick their production or development builds from
// NODE_ENV when first imported, so it is set before anything imports them.
process.env.NODE_ENV = config.env;
const { createSiteServer } = await import("./site-server.ts");
const log = createLogger(config.logLevel);
const root = path.resolve(import.meta.dirname, "..");
const build = (await import(pathToFileURL(path.join(root, "build/server/index.js")).href)) as ServerBuild;

// The database (migrations applied) and the outbox worker are ready before the port opens.
const app = await createServices(config, log);
await app.start();

let shuttingDown = false;
const server = createSiteServer({
  build,
  clientDir: path.join(root, "build/client"),
  services: app.services,
  isReady: async () => !shuttingDown && (await app.isReady()),
  isShuttingDown: () => shuttingDown,
});

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  log.info({ ...describeConfig(config), port, startupMs: Math.round(performance.now() - startedAt) }, "listening");
});

/**
 * First signal: stop accepting, let in-flight requests finish (bounded), stop
 * the worker after its current send, close the database, exit 0.
 * A second signal exits at once.
 */
async function shutdown(signal: string): Promise<void> {
  if (shuttingDown) {
    log.warn({ signal }, "second signal: exiting now");
    process.exit(1);
  }
  shuttingDown = true;
  log.info({ signal }, "shutting down");
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections become idle as their last response ends: close them as they do.
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const grace = setTimeout(() => {
    log.warn({ graceMs: limits.shutdownGraceMs }, "in-flight requests did not finish in time; closing them");
    server.closeAllConnections();
  }, limits.shutdownGraceMs);
  await closed;
  clearTimeout(grace);
  clearInterval(sweep);
  // A request whose connection was cut at the deadline may still be writing to the
  // database: let it finish (briefly) before the database closes under it.
  await server.settled(limits.shutdownGraceMs / 2);
  try {
    // The outbox worker finishes its current send, then the database closes.
    await app.stop();
  } catch (error) {
    log.error({ err: error }, "error while stopping services");
  }
  log.info({ signal }, "stopped");
  process.exit(0);
}

process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("unhandledRejection", (reason) => log.error({ err: reason }, "unhandled rejection"));
