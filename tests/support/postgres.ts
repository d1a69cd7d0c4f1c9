/** Database targets for the store tests: PGlite always, PostgreSQL when TEST_DATABASE_URL is set (a fresh database per use). */
import { randomBytes } from "node:crypto";
import net from "node:net";
import pg from "pg";

export const testDatabaseUrl = process.env.TEST_DATABASE_URL;

export interface DatabaseTarget {
  name: "pglite" | "postgres";
  /** Creates an empty database; returns its URL (undefined for in-memory PGlite). */
  create(): Promise<string | undefined>;
  /** Drops every database this target created. */
  cleanup(): Promise<void>;
}

export function databaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [{ name: "pglite", create: async () => undefined, cleanup: async () => {} }];
  if (testDatabaseUrl) {
    const created: string[] = [];
    targets.push({
      name: "postgres",
      async create() {
        const name = `contact_test_${randomBytes(6).toString("hex")}`;
        const admin = new pg.Client({ connectionString: testDatabaseUrl });
        await admin.connect();
        await admin.query(`create database ${name}`);
        await admin.end();
        created.push(name);
        const url = new URL(testDatabaseUrl);
        url.pathname = `/${name}`;
        return url.toString();
      },
      async cleanup() {
        const admin = new pg.Client({ connectionString: testDatabaseUrl });
        await admin.connect();
        for (const name of created.splice(0)) await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    });
  }
  return targets;
}

/** A TCP proxy in front of PostgreSQL that a test can cut (the database "goes away") and restore. */
export async function startTcpProxy(targetUrl: string) {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let blocked = false;
  const server = net.createServer((client) => {
    if (blocked) return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    block() {
      blocked = true;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    unblock() {
      blocked = false;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A PostgreSQL cluster of the test's own, in a temporary directory on a free loopback port, for a
 * test that restarts the server: restarting the shared cluster would cut every other test file's
 * connections (the integration files run three at a time). Needs PG_BIN (set by pg-throwaway.sh).
 */
export async function startOwnCluster(pgBin: string) {
  const { execFileSync } = await import("node:child_process");
  const { chownSync, mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const dir = mkdtempSync(path.join(tmpdir(), "pg-own-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = execFileSync("id", ["-u", "postgres"]).toString().trim();
    const gid = execFileSync("id", ["-g", "postgres"]).toString().trim();
    chownSync(dir, Number(uid), Number(gid));
  }
  const run = (args: string[]) => {
    const command = asRoot ? ["runuser", "-u", "postgres", "--", ...args] : args;
    execFileSync(command[0] as string, command.slice(1), { stdio: "ignore" });
  };
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const data = path.join(dir, "data");
  run([`${pgBin}/initdb`, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=50`;
  run([`${pgBin}/pg_ctl`, "-D", data, "-l", path.join(dir, "log"), "-o", options, "-w", "start"]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () => run([`${pgBin}/pg_ctl`, "-D", data, "-m", "fast", "-w", "restart"]),
    stop() {
      try {
        run([`${pgBin}/pg_ctl`, "-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
