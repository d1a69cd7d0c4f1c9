/** A migrated database for the audit and API tests: in-memory PGlite, or a fresh PostgreSQL database. */
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";

export async function openMigratedDatabase(databaseUrl?: string): Promise<Database> {
  const database = await openDatabase({ databaseUrl });
  await migrate(database, defaultMigrationsDir);
  return database;
}
