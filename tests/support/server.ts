/** Starts the built production server as a child process on a free loopback port. */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { serverEntry, serverEntryFlags, serverEnvironment, serverNodeFlags } from "../../server/runtime-flags.ts";

export const projectRoot = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Every line the process wrote, stdout and stderr. */
  output: string[];
  /** Parsed JSON log lines. */
  logs(): Record<string, unknown>[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Reuse a data directory (restarts); a fresh temporary one otherwise. */
  dataDir?: string;
  port?: number;
  /** Try this port first but move to another if it is taken (how the retry is tested). */
  firstPort?: number;
  /** Run `npm run dev` (the README's development server) instead of the production server. */
  dev?: boolean;
  /** Wait for /healthz to answer 200 (default true). */
  waitUntilHealthy?: boolean;
}

/**
 * freePort() closes its probe before the server listens, so another process (a test's outbound
 * connection takes ports from the same ephemeral range) can take the port in between: the server
 * then exits with EADDRINUSE. With a port of our own choosing, try again on another one.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      const port = options.port ?? (attempt === 1 ? options.firstPort : undefined);
      return await startServerOnce({ ...options, port });
    } catch (error) {
      const portTaken = error instanceof PortTakenError;
      if (!portTaken || options.port !== undefined || attempt >= 5) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startServerOnce(options: StartOptions): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "site-test-"));
  const url = `http://127.0.0.1:${port}`;
  const [command, args] = options.dev
    ? ["npm", ["run", "-s", "dev"]]
    : [process.execPath, [...serverNodeFlags, ...serverEntryFlags, path.join(projectRoot, serverEntry)]];
  const child = spawn(command, args, {
    // npm starts the server as its child: a process group of their own lets stop() signal both.
    detached: options.dev === true,
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      ...serverEnvironment,
      // A fresh DATA_DIR/db copied from the run's migrated cluster, or a database in memory unpacked
      // from its empty one (global-setup.ts), instead of initdb.
      ...(process.env.PGLITE_TEMPLATE ? { PGLITE_TEMPLATE: process.env.PGLITE_TEMPLATE } : {}),
      ...(process.env.PGLITE_TEMPLATE_DIR ? { PGLITE_TEMPLATE_DIR: process.env.PGLITE_TEMPLATE_DIR } : {}),
      HOME: process.env.HOME,
      NODE_ENV: options.dev ? "development" : "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      SITE_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // Tests never poll the real sources; those that ingest point the clients at the replay server.
      INGEST_SOURCES: "none",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  let buffered = "";
  const collect = (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    output.push(...lines);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const server: RunningServer = {
    url,
    port,
    dataDir,
    child,
    output,
    logs: () =>
      output.flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      if (options.dev && child.pid) process.kill(-child.pid, signal);
      else child.kill(signal);
      const code = await exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };

  if (options.waitUntilHealthy === false) return server;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const message = `server exited with ${child.exitCode}:\n${output.join("\n")}`;
      if (output.some((line) => line.includes("EADDRINUSE"))) {
        if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
        throw new PortTakenError(message);
      }
      throw new Error(message);
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
      if (response.status === 200) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await server.stop("SIGKILL");
  throw new Error(`server did not become healthy:\n${output.join("\n")}`);
}
