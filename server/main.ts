/** Entry point of the production server: configuration, services, HTTP, shutdown. */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { ConfigError, describeConfig, loadConfig } from "../app/.server/config.ts";
import { createLogger } from "../app/.server/logger.ts";
import { limits } from "./limits.ts";
import { createServices } from "./services.ts";
import { createSiteServer } from "./site-server.ts";

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

const log = createLogger(config.logLevel);
const root = path.resolve(import.meta.dirname, "..");
const build = (await import(pathToFileURL(path.join(root, "build/server/index.js")).href)) as ServerBuild;

const app = await createServices(config, log);
await app.start();

let shuttingDown = false;
const server = createSiteServer({
  build,
  clientDir: path.join(root, "build/client"),
  services: app.services,
  isReady: async () => !shuttingDown && (await app.isReady()),
});

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  log.info({ ...describeConfig(config), port, startupMs: Math.round(performance.now() - startedAt) }, "listening");
});

function shutdown(signal: string): void {
  if (shuttingDown) {
    log.warn({ signal }, "second signal: exiting now");
    process.exit(1);
  }
  shuttingDown = true;
  log.info({ signal }, "shutting down");
  const force = setTimeout(() => {
    log.warn("in-flight requests did not finish in time");
    server.closeAllConnections();
  }, limits.shutdownGraceMs);
  force.unref();
  server.close(() => {
    // The outbox worker finishes its current send, then the database closes.
    app.stop().finally(() => {
      log.info("stopped");
      process.exit(0);
    });
  });
  server.closeIdleConnections();
}

process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("unhandledRejection", (reason) => log.error({ err: reason }, "unhandled rejection"));
