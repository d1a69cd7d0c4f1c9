/**
 * The rows of a raw SQL statement, typed, on any executor (the database, a transaction): drizzle's
 * `execute` answers `{ rows }` on both PGlite and node-postgres but types it loosely.
 */
import type { SQL } from "drizzle-orm";

interface Executes {
  execute(query: SQL): PromiseLike<unknown>;
}

export async function rowsOf<T>(executor: Executes, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as { rows?: T[] };
  return result.rows ?? [];
}
