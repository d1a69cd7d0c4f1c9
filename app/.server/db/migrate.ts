/**
 * Applies the committed drizzle-kit migrations (drizzle/) in one transaction under a
 * PostgreSQL advisory lock, so instances starting at the same moment apply each one once.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "./client.ts";
import { rowsOf } from "./rows.ts";

/** Arbitrary constant shared by every instance: the advisory lock's key. */
const migrationLockKey = 72_041_203;

interface Journal {
  entries: { idx: number; tag: string }[];
}

/** A start that must not go on: the database is left as it was (the transaction rolled back). */
export class MigrationError extends Error {
  override name = "MigrationError";
}

/**
 * All pending migrations in one transaction: they apply together or not at all (a failure half-way
 * rolls every one of them back, and the error names the migration). A database that a newer
 * release migrated, or whose applied migrations were changed since, is refused before anything runs.
 */
export async function migrate(database: Database, migrationsDir: string): Promise<string[]> {
  const journal = JSON.parse(readFileSync(path.join(migrationsDir, "meta/_journal.json"), "utf8")) as Journal;
  const entries = [...journal.entries].sort((a, b) => a.idx - b.idx);
  const known = new Set(entries.map((entry) => entry.tag));
  const applied: string[] = [];
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${migrationLockKey})`);
    // A migration may rewrite a large table (a backfill): the pool's 15 s statement limit is for
    // requests, not for this transaction. (PGlite has no timeout to lift.)
    if (database.kind === "postgres") await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(
      sql`create table if not exists app_migrations (tag text primary key, hash text not null, applied_at timestamptz not null default now())`,
    );
    const done = await rowsOf<{ tag: string; hash: string }>(tx, sql`select tag, hash from app_migrations`);
    const unknown = done.filter((row) => !known.has(row.tag)).map((row) => row.tag);
    if (unknown.length > 0) {
      throw new MigrationError(
        `the database was migrated by a newer release (${unknown.sort().join(", ")} unknown to this one): ` +
          "run that release, or restore a backup made before it; nothing was changed",
      );
    }
    const doneHashes = new Map(done.map((row) => [row.tag, row.hash]));
    for (const entry of entries) {
      const text = readFileSync(path.join(migrationsDir, `${entry.tag}.sql`), "utf8");
      const hash = createHash("sha256").update(text).digest("hex");
      const doneHash = doneHashes.get(entry.tag);
      if (doneHash !== undefined) {
        // Applied migrations never change: a different file means this build and the database disagree.
        if (doneHash !== hash) {
          throw new MigrationError(
            `migration ${entry.tag} was applied to this database with other contents than this release's ` +
              "drizzle/ holds (an edited migration): nothing was changed; restore the release's file",
          );
        }
        continue;
      }
      try {
        await tx.transaction(async (step) => {
          for (const statement of text.split("--> statement-breakpoint")) {
            if (statement.trim()) await step.execute(sql.raw(statement));
          }
          await step.execute(sql`insert into app_migrations (tag, hash) values (${entry.tag}, ${hash})`);
        });
      } catch (error) {
        const cause = error as Error & { cause?: Error };
        throw new MigrationError(
          `migration ${entry.tag} failed, so none of this start's migrations (${[...applied, entry.tag].join(", ")}) ` +
            `was applied and the database is as it was: ${cause.cause?.message ?? cause.message}`,
          { cause: error },
        );
      }
      applied.push(entry.tag);
    }
  });
  return applied;
}

export const defaultMigrationsDir = path.resolve(import.meta.dirname, "../../../drizzle");
