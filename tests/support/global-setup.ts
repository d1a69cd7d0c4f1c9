/**
 * Once per test run: an empty PGlite cluster (with the extensions the migrations create), dumped
 * to a tarball that every new PGlite database of the run is unpacked from (PGLITE_TEMPLATE, read by
 * app/.server/db/client.ts), instead of running initdb each time: a few seconds saved for each of
 * the suite's hundreds of fresh databases and server starts. The workers inherit the variable.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), "pglite-template-"));
  const file = path.join(dir, "empty-cluster.tar");
  const client = await PGlite.create({ extensions: { unaccent, pg_trgm } });
  const dump = await client.dumpDataDir("none");
  await client.close();
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.PGLITE_TEMPLATE = file;
  return () => rmSync(dir, { recursive: true, force: true });
}
