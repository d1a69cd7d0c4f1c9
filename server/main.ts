/** Entry point of the production server: configuration, services, HTTP, graceful shutdown. */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { ConfigError, describeConfig, loadConfig } from "../app/.server/config.ts";
import { createLogger } from "../app/.server/logger.ts";
import { limits } from "./limits.ts";

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

/** What runs beside the HTTP server (database, outbox worker): started before listening, stopped after it. */
interface Lifecycle {
  isReady(): Promise<boolean>;
  stop(): Promise<void>;
}
const lifecycle: Lifecycle = { isReady: async () => true, stop: async () => {} };

let shuttingDown = false;
const server = createSiteServer({
  build,
  clientDir: path.join(root, "build/client"),
  services: { config, log },
  isReady: async () => !shuttingDown && (await lifecycle.isReady()),
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
  try {
    await lifecycle.stop();
  } catch (error) {
    log.error({ err: error }, "error while stopping services");
  }
  log.info({ signal }, "stopped");
  process.exit(0);
}

process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("unhandledRejection", (reason) => log.error({ err: reason }, "unhandled rejection"));
