/**
 * pg-boss's start, retried: instances starting at the same moment on a fresh PostgreSQL can
 * collide while pg-boss installs its schema (seen as a duplicate "pgboss" namespace in the
 * several-instances test); the loser's second attempt finds the schema installed.
 */
import type { PgBoss } from "pg-boss";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";

export async function startBoss(boss: PgBoss, log: Pick<Logger, "warn">, attempts = 4): Promise<void> {
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
 */
export function bossDb(database: Database): {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
} {
  const client = (database.db as unknown as { $client: { exec(text: string): Promise<{ rows: unknown[] }[]> } })
    .$client;
  return {
    executeSql: async (text, values) =>
      database.kind === "pglite" && !values?.length
        ? { rows: (await client.exec(text)).flatMap((result) => result.rows) }
        : database.query(text, values),
  };
}
