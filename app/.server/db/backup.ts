/**
 * Backups of the embedded database while the server runs (decision 0143). PGlite is one process's
 * database: a second process opening DATA_DIR/db beside the server would corrupt it. So the server
 * listens on a Unix socket, DATA_DIR/ops.sock (mode 0600: only the account that runs the server
 * may connect), and `npm run platform -- backup` asks it for the copy; with no server listening the
 * command opens the database itself. The same socket tells `restore` that a server is running.
 *
 * Protocol: the client writes `backup\n`; the server answers one JSON line, `{"ok":true,"bytes":N}`
 * followed by N bytes (a gzipped tarball of the cluster, PGlite's dumpDataDir), or
 * `{"ok":false,"error":"…"}`.
 */
import { chmodSync, existsSync, renameSync, rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import path from "node:path";
import type { Logger } from "../logger.ts";
import type { Database } from "./client.ts";

// client.ts imports this module too: only types cross back.

/** Linux's limit for a Unix socket path (sun_path, 108 bytes with the terminating zero). */
const maxSocketPath = 107;

export function opsSocketPath(dataDir: string): string {
  return path.join(dataDir, "ops.sock");
}

/**
 * Serves backups of `database` on DATA_DIR/ops.sock. Refuses to start when another live process
 * answers on it: two servers on one embedded database corrupt it.
 */
export async function startOpsSocket(database: Database, dataDir: string, log: Logger): Promise<Server | undefined> {
  const socketPath = opsSocketPath(dataDir);
  const dump = database.dumpDataDir;
  if (!dump) return undefined;
  if (Buffer.byteLength(socketPath) > maxSocketPath) {
    log.warn({ socketPath }, "DATA_DIR is too long a path for the backup socket: stop the server to back up");
    return undefined;
  }
  if (existsSync(socketPath)) {
    if (await socketAnswers(socketPath)) {
      throw new Error(
        `another process is serving ${path.join(dataDir, "db")} (it answers on ${socketPath}); stop it first`,
      );
    }
    rmSync(socketPath, { force: true }); // left by a process that was killed
  }
  const server = createServer((socket) => {
    socket.setEncoding("utf8");
    let request = "";
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      request += chunk;
      if (!request.includes("\n")) return;
      const command = request.slice(0, request.indexOf("\n")).trim();
      if (command === "ping") {
        socket.end(`${JSON.stringify({ ok: true })}\n`);
        return;
      }
      if (command !== "backup") {
        socket.end(`${JSON.stringify({ ok: false, error: `unknown command ${JSON.stringify(command)}` })}\n`);
        return;
      }
      const startedAt = Date.now();
      dump()
        .then(async (blob) => {
          const bytes = Buffer.from(await blob.arrayBuffer());
          socket.write(`${JSON.stringify({ ok: true, bytes: bytes.length })}\n`);
          socket.end(bytes);
          log.info({ bytes: bytes.length, ms: Date.now() - startedAt }, "database backup taken");
        })
        .catch((error: unknown) => {
          log.error({ err: error }, "database backup failed");
          socket.end(`${JSON.stringify({ ok: false, error: (error as Error).message })}\n`);
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  server.unref();
  return server;
}

export async function stopOpsSocket(server: Server | undefined): Promise<void> {
  if (!server) return;
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Whether a live server answers on the socket (a file left by a killed process does not). */
export function socketAnswers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 5000);
    socket.once("connect", () => socket.write("ping\n"));
    socket.once("data", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

/** The running server's backup, or undefined when no server answers on DATA_DIR/ops.sock. */
export function backupFromRunningServer(dataDir: string): Promise<Buffer | undefined> {
  const socketPath = opsSocketPath(dataDir);
  if (!existsSync(socketPath)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    const chunks: Buffer[] = [];
    let connected = false;
    socket.once("connect", () => {
      connected = true;
      socket.write("backup\n");
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("error", (error) => (connected ? reject(error) : resolve(undefined)));
    socket.once("end", () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(0x0a);
      if (newline < 0) return reject(new Error("the server closed the backup socket without an answer"));
      const header = JSON.parse(all.subarray(0, newline).toString("utf8")) as {
        ok: boolean;
        bytes?: number;
        error?: string;
      };
      if (!header.ok) return reject(new Error(`the server could not take the backup: ${header.error}`));
      const body = all.subarray(newline + 1);
      if (body.length !== header.bytes) {
        return reject(new Error(`backup cut short: ${body.length} of ${header.bytes} bytes received`));
      }
      resolve(body);
    });
  });
}

/**
 * Replaces DATA_DIR/db with the cluster in `tarball`: unpacked beside it first and opened once (a
 * file that is not a PGlite backup of this product fails here, before anything is replaced); the
 * old cluster is kept as db.before-restore-<time>. The caller makes sure no server is running.
 */
export async function restoreDataDir(
  dataDir: string,
  tarball: Buffer,
  open: (dir: string, tarball: Blob) => Promise<Database>,
): Promise<{ previous: string | undefined; migrations: number }> {
  const target = path.join(dataDir, "db");
  const staging = path.join(dataDir, "db.restoring");
  rmSync(staging, { recursive: true, force: true });
  let migrations: number;
  try {
    const database = await open(staging, new Blob([new Uint8Array(tarball)]));
    try {
      const rows = await database.query<{ count: number }>("select count(*)::int as count from app_migrations");
      migrations = rows.rows[0]?.count ?? 0;
    } finally {
      await database.close();
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`not a backup of this product's embedded database: ${(error as Error).message}`);
  }
  let previous: string | undefined;
  if (existsSync(target)) {
    previous = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(target, previous);
  }
  renameSync(staging, target);
  return { previous, migrations };
}
