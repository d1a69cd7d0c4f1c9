/**
 * Once per test run, two templates that new PGlite databases start from instead of running initdb
 * (app/.server/db/client.ts reads both; the workers and the servers they start inherit them):
 * - PGLITE_TEMPLATE: an empty cluster (with the extensions the migrations create) dumped to a
 *   tarball, unpacked for each database in memory, which then applies the migrations itself;
 * - PGLITE_TEMPLATE_DIR: the same cluster on disk with every migration applied, copied for each new
 *   DATA_DIR/db (servers and operator commands): a file copy instead of unpacking and migrating,
 *   2-4 s less for each of the suite's server starts on a 2-core machine.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), "pglite-template-"));
  const file = path.join(dir, "empty-cluster.tar");
  const client = await PGlite.create({ extensions: { unaccent, pg_trgm } });
  const dump = await client.dumpDataDir("none");
  await client.close();
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.PGLITE_TEMPLATE = file;

  // Unpacked from the tarball above, migrated, and closed cleanly before anything copies it.
  const migrated = path.join(dir, "migrated-cluster");
  const database = await openDatabase({ pgliteDir: migrated });
  await migrate(database, defaultMigrationsDir);
  await database.close();
  process.env.PGLITE_TEMPLATE_DIR = migrated;
  return () => rmSync(dir, { recursive: true, force: true });
}
