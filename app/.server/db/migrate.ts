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

export async function migrate(database: Database, migrationsDir: string): Promise<string[]> {
  const journal = JSON.parse(readFileSync(path.join(migrationsDir, "meta/_journal.json"), "utf8")) as Journal;
  const applied: string[] = [];
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${migrationLockKey})`);
    // A migration may rewrite a large table (a backfill): the pool's 15 s statement limit is for
    // requests, not for this transaction. (PGlite has no timeout to lift.)
    if (database.kind === "postgres") await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(
      sql`create table if not exists app_migrations (tag text primary key, hash text not null, applied_at timestamptz not null default now())`,
    );
    const done = await rowsOf<{ tag: string }>(tx, sql`select tag from app_migrations`);
    const doneTags = new Set(done.map((row) => row.tag));
    for (const entry of [...journal.entries].sort((a, b) => a.idx - b.idx)) {
      if (doneTags.has(entry.tag)) continue;
      const text = readFileSync(path.join(migrationsDir, `${entry.tag}.sql`), "utf8");
      for (const statement of text.split("--> statement-breakpoint")) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      const hash = createHash("sha256").update(text).digest("hex");
      await tx.execute(sql`insert into app_migrations (tag, hash) values (${entry.tag}, ${hash})`);
      applied.push(entry.tag);
    }
  });
  return applied;
}

export const defaultMigrationsDir = path.resolve(import.meta.dirname, "../../../drizzle");
