/**
 * Entry point of the server process: configuration, the app, HTTP, graceful shutdown.
 * Production (`npm start`, `npm run serve`) runs the compiled app from build/server;
 * `--dev` (`npm run dev`) runs the same server with Vite in middleware mode, the app
 * loaded through Vite with hot reload.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as AppModule from "../app/.server/app.ts";
import { limits } from "./limits.ts";

const dev = process.argv.includes("--dev");
// React and React Router pick their production or development builds from NODE_ENV
// when first imported, so it is set before anything imports them.
process.env.NODE_ENV ??= dev ? "development" : "production";
const startedAt = performance.now();
const root = path.resolve(import.meta.dirname, "..");

const vite = dev
  ? await (await import("vite")).createServer({ root, server: { middlewareMode: true }, appType: "custom" })
  : undefined;
const appModule = (
  vite
    ? await vite.ssrLoadModule("/app/.server/app.ts")
    : await import(pathToFileURL(path.join(root, "build/server/index.js")).href)
) as typeof AppModule;

let config: ReturnType<typeof appModule.loadConfig>;
try {
  config = appModule.loadConfig();
} catch (error) {
  if (error instanceof appModule.ConfigError) {
    process.stderr.write(`${error.message}\n`);
    await vite?.close();
    process.exit(1);
  }
  throw error;
}

const { createSiteServer } = await import("./site-server.ts");
const log = appModule.createLogger(config.logLevel, appModule.logDestination(process.stdout, config.logFormat));

// The database (migrations applied) and the outbox worker are ready before the port opens.
const app = await appModule.createApp(config, log, {
  rootDir: root,
  ...(vite ? { build: () => vite.ssrLoadModule("virtual:react-router/server-build") as never } : {}),
});
try {
  await app.start();
} catch (error) {
  // A start that cannot go on (a migration refused or failed: the database is as it was) stops
  // cleanly: the reason in the log and on stderr, the database closed, exit 1.
  log.error({ err: error }, "start failed");
  process.stderr.write(`start failed: ${(error as Error).message}\n`);
  await app.stop().catch(() => {});
  await vite?.close();
  process.exit(1);
}

let shuttingDown = false;
const server = createSiteServer({
  app,
  log,
  ...(vite ? { middleware: vite.middlewares, pageCacheTtlMs: 0 } : { clientDir: path.join(root, "build/client") }),
  isReady: async () => !shuttingDown && (await app.isReady()),
  writesRefused: () => app.writesRefused(),
  isShuttingDown: () => shuttingDown,
});

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  log.info(
    { ...appModule.describeConfig(config), port, dev, startupMs: Math.round(performance.now() - startedAt) },
    "listening",
  );
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
  // Long-lived answers (the /app/events streams) end now; pages reconnect to another instance.
  app.closeStreams();
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
    await vite?.close();
  } catch (error) {
    log.error({ err: error }, "error while stopping services");
  }
  log.info({ signal }, "stopped");
  process.exit(0);
}

process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("unhandledRejection", (reason) => log.error({ err: reason }, "unhandled rejection"));
