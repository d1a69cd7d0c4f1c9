/**
 * The built app (build/server) and the real HTTP server in this process, on in-memory PGlite:
 * requests go through the same server code as production while the test reaches the services
 * (e.g. services.alerts.matchNow) directly. Needs `npm run build`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as AppModule from "../../app/.server/app.ts";
import { createSiteServer } from "../../server/site-server.ts";
import { projectRoot } from "./server.ts";

/**
 * A port under Linux's ephemeral range (32768 and up), where the kernel never hands out the
 * local end of outgoing connections (the browser's, the database's): a random pick there once
 * collided with one (EADDRINUSE). Checked free by binding it; another test's pick can still
 * race it, one chance in ~20,000.
 */
async function unusedPortBelowEphemeral(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = 12_000 + Math.floor(Math.random() * 20_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
    if (attempt > 50) throw new Error("no free port found under 32768");
  }
}

export async function startInProcessServer(
  env: Record<string, string> = {},
  options: {
    /** PGlite in DATA_DIR instead of memory: the services then run their jobs as in production. */
    inMemory?: boolean;
    /** Reuse the owner's data directory (a second instance on the same PostgreSQL). */
    dataDir?: string;
    /** The sample the admin can load (default: every recorded day and act). */
    sampleRoot?: string;
  } = {},
) {
  const appModule = (await import(
    pathToFileURL(path.join(projectRoot, "build/server/index.js")).href
  )) as typeof AppModule;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "alerts-http-"));
  const log = appModule.createLogger("silent");
  // SITE_URL names the loopback origin the tests use, so the port is chosen before the app exists.
  const port = await unusedPortBelowEphemeral();
  const url = `http://127.0.0.1:${port}`;
  const config = appModule.loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    SITE_URL: url,
    LOG_LEVEL: "silent",
    AUTH_SECRET: "auth-secret-auth-secret-auth-secret-0123",
    FORM_SECRET: "test-secret-test-secret-test-secret-0123",
    INGEST_SOURCES: "none",
    ...env,
  });
  const app = await appModule.createApp(config, log, {
    rootDir: projectRoot,
    ...(options.inMemory === false ? {} : { inMemory: true }),
    ...(options.sampleRoot ? { sampleRoot: options.sampleRoot } : {}),
  });
  await app.start();
  let shuttingDown = false;
  const server = createSiteServer({
    app,
    log,
    clientDir: path.join(projectRoot, "build/client"),
    isReady: async () => !shuttingDown && (await app.isReady()),
    isShuttingDown: () => shuttingDown,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  if ((server.address() as AddressInfo).port !== port) throw new Error("port mismatch");
  return {
    url,
    app,
    config,
    dataDir,
    /** As server/main.ts does: end the streams, close the server, stop the services. */
    async stop() {
      shuttingDown = true;
      app.closeStreams();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), 5000);
      await closed;
      clearTimeout(timer);
      await app.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
