/** Opens the database: PGlite under DATA_DIR by default, PostgreSQL when DATABASE_URL is set. Same schema, same SQL. */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { opsSocketPath, socketAnswers } from "./backup.ts";
import { rowsOf } from "./rows.ts";
import * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  kind: "pglite" | "postgres";
  db: Db;
  /** The pg pool when kind is "postgres" (the rate limiter shares it). */
  pool: pg.Pool | undefined;
  /** Rows of a raw query, whatever the driver. */
  rows<T>(query: SQL): Promise<T[]>;
  /** A parameterised raw query ($1, $2...), whatever the driver (pg-boss's executeSql uses it). */
  query<T>(text: string, values?: unknown[]): Promise<{ rows: T[] }>;
  /** A cheap `select 1` with a timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
  /**
   * PGlite only: a gzipped tarball of the whole cluster, taken between transactions (no other
   * statement runs meanwhile), after a checkpoint: `npm run platform -- backup` (db/backup.ts).
   */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; undefined keeps PGlite in memory (tests). */
  pgliteDir?: string | undefined;
  /** PGlite only: a new cluster at pgliteDir unpacked from this tarball (a backup being restored). */
  loadDataDir?: Blob | undefined;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      // Statements never hang for ever when the server is sick.
      statement_timeout: 15_000,
    });
    // An idle client losing its server emits "error" on the pool: log-worthy, never fatal.
    pool.on("error", () => {});
    // A client checked out (a transaction between two statements) that loses its server emits
    // "error" on itself, where the pool listens no more: unhandled, it killed the process when
    // PostgreSQL restarted mid-fan-out (tests/faults/crash-fanout.test.ts). The statement in
    // flight fails on its own; the client is discarded when released.
    pool.on("connect", (client) => {
      client.on("error", () => {});
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      kind: "postgres",
      db,
      pool,
      rows: <T>(query: SQL) => rowsOf<T>(db, query),
      query: async <T>(text: string, values?: unknown[]) => {
        const result = await pool.query(text, values as unknown[]);
        return { rows: result.rows as T[] };
      },
      ping: (timeoutMs = 1000) =>
        withTimeout(
          pool.query("select 1").then(() => true),
          timeoutMs,
        ),
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  if (options.pgliteDir) {
    mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
    dataDir = options.pgliteDir;
    // The embedded database takes one process: a running server answers on DATA_DIR/ops.sock.
    const socketPath = opsSocketPath(path.dirname(dataDir));
    if (existsSync(socketPath) && (await socketAnswers(socketPath))) {
      throw new Error(
        `a server is running on ${dataDir} (it answers on ${socketPath}): stop it first; \`npm run platform -- backup\` works while it runs`,
      );
    }
  }
  // PGlite compiles PostgreSQL to WebAssembly: the server runs it on V8's baseline tier only
  // (`--liftoff-only` in server/runtime-flags.ts, a start-up flag: decision 0132).
  // Loaded only for the embedded database: a process on PostgreSQL does not hold PGlite's code.
  const [{ PGlite }, { pg_trgm }, { unaccent }, { drizzle: drizzlePglite }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/unaccent"),
    import("drizzle-orm/pglite"),
  ]);
  const restoring = options.loadDataDir;
  if (dataDir && !restoring) copyClusterTemplate(dataDir);
  const template = restoring ?? freshClusterTemplate(dataDir);
  if (dataDir && !template && !existsSync(path.join(dataDir, "PG_VERSION"))) await createClusterApart(dataDir);
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(template ? { loadDataDir: template } : {}),
    // Full-text search of documents needs unaccent and pg_trgm, as on PostgreSQL.
    extensions: { unaccent, pg_trgm },
    // One embedded client and a few small tables: PostgreSQL's server-sized defaults
    // (128 MB of shared buffers) only cost resident memory here.
    postgresqlconf: ["shared_buffers=16MB", "wal_buffers=512kB", "work_mem=1MB", "maintenance_work_mem=8MB"],
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    pool: undefined,
    rows: <T>(query: SQL) => rowsOf<T>(db, query),
    query: async <T>(text: string, values?: unknown[]) => {
      // PGlite's query() runs one statement with parameters; exec() runs several without.
      if (values && values.length > 0) return { rows: (await client.query<T>(text, values)).rows };
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as T[] };
    },
    ping: (timeoutMs = 1000) =>
      withTimeout(
        client.query("select 1").then(() => true),
        timeoutMs,
      ),
    // The checkpoint writes the committed pages (little WAL left to replay when the copy opens);
    // then the copy under PGlite's transaction lock, so no transaction is half-way while the files
    // are read (exec and query take that lock themselves: the checkpoint cannot run inside it).
    dumpDataDir: async () => {
      await client.exec("checkpoint");
      return client._runExclusiveTransaction(() => client.dumpDataDir("gzip"));
    },
    close: () => client.close(),
  };
}

/**
 * PGLITE_TEMPLATE (tests and CI): a tarball of an empty PGlite cluster (PGlite's dumpDataDir,
 * made once per test run by tests/support/global-setup.ts). A new cluster is then unpacked from
 * it instead of running initdb, which costs seconds each time on a small machine. Only for a
 * cluster that does not exist yet; an existing DATA_DIR/db is always opened as it is.
 */
function freshClusterTemplate(dataDir: string | undefined): Blob | undefined {
  const file = process.env.PGLITE_TEMPLATE;
  if (!file || !existsSync(file)) return undefined;
  if (dataDir && existsSync(path.join(dataDir, "PG_VERSION"))) return undefined;
  return new Blob([readFileSync(file)]);
}

/**
 * PGLITE_TEMPLATE_DIR (tests and CI): a closed PGlite cluster with every migration applied, made
 * once per test run by tests/support/global-setup.ts. A cluster on disk that does not exist yet is
 * copied from it: a file copy, where unpacking the tarball through PGlite's file system and then
 * applying the migrations took 2-4 s of each server start on a 2-core machine. migrate() then finds
 * them all applied. Clusters in memory still come from PGLITE_TEMPLATE (and apply the migrations).
 */
function copyClusterTemplate(dataDir: string): void {
  const source = process.env.PGLITE_TEMPLATE_DIR;
  if (!source || !existsSync(path.join(source, "PG_VERSION"))) return;
  if (existsSync(path.join(dataDir, "PG_VERSION"))) return;
  cpSync(source, dataDir, { recursive: true });
}

/**
 * A new PGlite cluster is made by initdb inside the WebAssembly module, which takes about 1 GB of
 * memory for a few seconds; the process keeps much of it afterwards (measured: 1,087 MB peak and
 * 627 MB after, against 179 MB when opening an existing cluster). So the cluster is created by a
 * short-lived Node process of its own, and the server only ever opens an existing one
 * (docs/decisions/0006-memory.md).
 */
async function createClusterApart(dataDir: string): Promise<void> {
  const moduleUrl = pathToFileURL(createRequireResolve("@electric-sql/pglite")).href;
  const script =
    "const { PGlite } = await import(process.argv[1]);" +
    "const pg = await PGlite.create({ dataDir: process.argv[2] }); await pg.close();";
  // On V8's baseline tier, as the server (decision 0132): initdb is the WebAssembly module's heaviest work.
  await promisify(execFile)(
    process.execPath,
    ["--liftoff-only", "--input-type=module", "-e", script, moduleUrl, dataDir],
    {
      timeout: 300_000,
    },
  );
}

function createRequireResolve(specifier: string): string {
  return createRequire(import.meta.url).resolve(specifier);
}

function withTimeout(promise: Promise<boolean>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}

export { sql };
