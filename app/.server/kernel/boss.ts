/**
 * The process's one pg-boss client (schema `pgboss`): on PostgreSQL with a DATABASE_URL, a small
 * pool of its own (LISTEN/NOTIFY job wake-ups need a session-pinned connection); otherwise the
 * database as pg-boss's adapter (PGlite with its in-process LISTEN, or a PostgreSQL Database
 * without URL, which polls). Its start is retried: instances starting at the same moment on a
 * fresh PostgreSQL can collide while pg-boss installs its schema (seen as a duplicate "pgboss"
 * namespace in the several-instances test); the loser's second attempt finds the schema installed.
 */
import { PgBoss } from "pg-boss";
import type { Database } from "../db/client.ts";

export const bossSchema = "pgboss";

interface PgliteClient {
  exec(text: string): Promise<{ rows: unknown[] }[]>;
  listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>>;
}

export async function startBoss(
  boss: PgBoss,
  log: { warn(obj: object, msg?: string): void },
  attempts = 4,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.start();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      log.warn({ err: error, attempt }, "job queue did not start; trying again");
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt + Math.random() * 250));
    }
  }
}

/**
 * The database as pg-boss's adapter. pg-boss needs the rows of every statement of a
 * multi-statement query, as the pg driver gives them (its maintenance asserts it);
 * Database.query keeps only the last one's on PGlite, so those go through PGlite's exec.
 * On PGlite, LISTEN is in-process (job wake-ups by NOTIFY).
 */
export function bossDb(database: Database) {
  const client = (database.db as unknown as { $client: PgliteClient }).$client;
  const pglite = database.kind === "pglite";
  return {
    executeSql: async (text: string, values?: unknown[]): Promise<{ rows: unknown[] }> =>
      pglite && !values?.length
        ? { rows: (await client.exec(text)).flatMap((result) => result.rows) }
        : database.query(text, values),
    ...(pglite
      ? {
          async listen(channel: string, onNotification: (payload: string) => void, onReconnect: () => void) {
            const unlisten = await client.listen(channel, onNotification);
            onReconnect();
            return { close: () => unlisten() };
          },
        }
      : {}),
  };
}

/** The pg-boss client for this database (see the file's comment). */
export function createBoss(database: Database, databaseUrl?: string): PgBoss {
  if (database.kind === "postgres" && databaseUrl) {
    return new PgBoss({ connectionString: databaseUrl, max: 4, schema: bossSchema, useListenNotify: true });
  }
  return new PgBoss({
    db: bossDb(database),
    backend: database.kind === "pglite" ? "pglite" : "postgres",
    schema: bossSchema,
    useListenNotify: database.kind === "pglite",
  });
}
