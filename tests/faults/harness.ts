/**
 * What the crash-point files share: a DATA_DIR (and, on PostgreSQL, its database) prepared in the
 * test process, the built server started on it with FAULT_AT until it kills itself, the state read
 * back between runs, and `audit:verify` run as the operator runs it (its own process).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import type { DatabaseTarget } from "../support/postgres.ts";
import { projectRoot, type RunningServer, startServer } from "../support/server.ts";

/** FAULTS_DEBUG=1: each step's time on stderr (where a slow run spends it). */
const started = Date.now();
export function note(what: string): void {
  if (process.env.FAULTS_DEBUG)
    process.stderr.write(`[faults +${((Date.now() - started) / 1000).toFixed(1)}s] ${what}\n`);
}

export const authSecret = "crash-points-auth-secret-0123456789abcdef";

export interface Site {
  dataDir: string;
  /** The PostgreSQL database (undefined: the embedded one in DATA_DIR/db). */
  databaseUrl: string | undefined;
  withDatabase<T>(use: (database: Database) => Promise<T>): Promise<T>;
  /** The server's environment for this site (plus `extra`). */
  env(extra?: Record<string, string>): Record<string, string>;
  remove(): void;
}

/** A fresh, migrated DATA_DIR (and database on PostgreSQL). */
export async function prepareSite(target: DatabaseTarget, name: string): Promise<Site> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `faults-${name}-`));
  const databaseUrl = await target.create();
  const site: Site = {
    dataDir,
    databaseUrl,
    async withDatabase(use) {
      const database = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, "db") });
      try {
        return await use(database);
      } finally {
        await database.close();
      }
    },
    env: (extra = {}) => ({
      AUTH_SECRET: authSecret,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...extra,
    }),
    remove: () => rmSync(dataDir, { recursive: true, force: true }),
  };
  await site.withDatabase((database) => migrate(database, defaultMigrationsDir));
  return site;
}

/** Starts the server with FAULT_AT and waits until it has killed itself there. */
export async function runUntilKilled(
  site: Site,
  faultAt: string,
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<void> {
  const server = await startServer({
    dataDir: site.dataDir,
    env: site.env({ ...options.env, FAULT_AT: faultAt }),
    waitUntilHealthy: false,
  });
  const signal = await exitSignal(server, options.timeoutMs ?? 240_000);
  note(`killed at ${faultAt}`);
  if (signal !== "SIGKILL")
    throw new Error(`expected the server to kill itself at ${faultAt}, it ended with ${signal}:\n${tail(server)}`);
}

/**
 * The server started on the site and answering /healthz: like startServer, with a longer wait (a
 * restart after SIGKILL replays the embedded database's WAL; on a loaded 2-core machine the
 * support's two minutes were seen to run out).
 */
export async function startHealthy(
  site: Pick<Site, "dataDir" | "env">,
  env: Record<string, string> = {},
  timeoutMs = 300_000,
): Promise<RunningServer> {
  const server = await startServer({ dataDir: site.dataDir, env: site.env(env), waitUntilHealthy: false });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      throw new Error(`the server ended while starting:\n${tail(server)}`);
    const status = await fetch(`${server.url}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.stop("SIGKILL");
  throw new Error(`the server did not become healthy within ${timeoutMs} ms:\n${tail(server)}`);
}

/** Resolves with the signal that ended the process (rejects after the timeout, the process killed). */
export function exitSignal(server: RunningServer, timeoutMs: number): Promise<NodeJS.Signals | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null)
    return Promise.resolve(server.child.signalCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void server.stop("SIGKILL");
      reject(new Error(`the server did not stop within ${timeoutMs} ms:\n${tail(server)}`));
    }, timeoutMs);
    server.child.once("exit", (_code, signal) => {
      clearTimeout(timer);
      resolve(signal);
    });
  });
}

export const tail = (server: RunningServer) => server.output.slice(-40).join("\n");

/** Polls `check` until it holds (rejects with the last value after the timeout). */
export async function waitFor<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

/** The leases of a killed process's outbox rows end (2 minutes in production): aged here instead of waited for. */
export const expireLeases = (database: Database, table: "deliveries" | "mail_outbox") =>
  database.rows(
    sql`update ${sql.identifier(table)} set lease_until = now() - interval '1 second' where status = 'sending'`,
  );

/** `npm run platform -- audit:verify` on the site, as the operator runs it (the server stopped on PGlite). */
export function auditVerify(site: Pick<Site, "dataDir" | "env">): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/platform.ts", "audit:verify"], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: site.dataDir, LOG_LEVEL: "warn", ...site.env() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("close", (code) => resolve({ code, output }));
  });
}

/**
 * An organisation with `members` users (user-00001…), all in one group (team) `team`; users'
 * language `es`. One statement per table (generate_series): 10,000 members in a second or two.
 */
export async function populateOrganisation(
  database: Database,
  input: { organizationId: string; members: number; team: string },
): Promise<void> {
  const { organizationId: org, members, team } = input;
  await database.rows(
    sql`insert into auth_organization (id, name, slug, created_at) values (${org}, ${org}, ${org}, now())`,
  );
  await database.rows(sql`insert into auth_user (id, name, email, email_verified, created_at, updated_at)
    select 'user-' || lpad(n::text, 5, '0'), 'Persona ' || n, 'user-' || lpad(n::text, 5, '0') || '@' || ${org} || '.example', true, now(), now()
    from generate_series(1, ${members}) n`);
  await database.rows(sql`insert into auth_member (id, organization_id, user_id, role, created_at)
    select 'm-' || n, ${org}, 'user-' || lpad(n::text, 5, '0'), case when n = 1 then 'owner' else 'member' end, now()
    from generate_series(1, ${members}) n`);
  await database.rows(sql`insert into auth_team (id, name, organization_id, member_count, created_at)
    values (${team}, ${team}, ${org}, ${members}, now())`);
  await database.rows(sql`insert into auth_team_member (id, team_id, user_id, created_at)
    select 'tm-' || n, ${team}, 'user-' || lpad(n::text, 5, '0'), now() from generate_series(1, ${members}) n`);
}

/**
 * Runs the server until `done` holds. PostgreSQL: watched while it runs. The embedded database
 * takes one process: the server is stopped (SIGTERM: it finishes its current batch) every few
 * seconds to look, and started again while work remains (each start another restart).
 */
export async function runUntilDone(
  site: Site,
  done: (database: Database) => Promise<boolean>,
  options: { env?: Record<string, string>; timeoutMs?: number; what: string },
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  for (;;) {
    const server = await startHealthy(site, options.env);
    const watched = site.databaseUrl
      ? waitFor(() => site.withDatabase(done), Boolean, 120_000, options.what).then(
          () => undefined,
          (error: unknown) => error,
        )
      : new Promise((resolve) => setTimeout(resolve, 8_000)).then(() => undefined);
    const failure = await watched;
    const code = await server.stop();
    if (code !== 0) throw new Error(`the server ended with ${code}:\n${tail(server)}`);
    if (failure) throw failure;
    note(`${options.what}: server stopped`);
    if (await site.withDatabase(done)) return;
    if (Date.now() > deadline) throw new Error(`${options.what}: not done after ${options.timeoutMs ?? 180_000} ms`);
  }
}
