/**
 * `npm run platform -- backup [--out FILE]`: a consistent copy of the embedded database (PGlite,
 * DATA_DIR/db) as a gzipped tarball, taken by the running server between two transactions
 * (DATA_DIR/ops.sock, decision 0143), or by this command when no server runs. The secrets in
 * DATA_DIR (auth-secret, form-secret) are not in it: keep them apart (docs/operations.md).
 * With DATABASE_URL, PostgreSQL's own pg_dump is the tool; the command says how and exits 2.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { type Config, loadConfig } from "../../app/.server/config.ts";
import { backupFromRunningServer } from "../../app/.server/db/backup.ts";
import { openDatabase } from "../../app/.server/db/client.ts";

export const summary = "copy the embedded database (while the server runs) to a .tar.gz (--out FILE)";

const usage = "usage: npm run platform -- backup [--out vn-2026-12-06.tar.gz]\n";

export const pgDumpAdvice =
  "With DATABASE_URL the database is PostgreSQL: back it up with its own tool, beside the running servers:\n" +
  '  pg_dump --format=custom --file=vn-$(date +%F).dump "$DATABASE_URL"\n' +
  "and restore into an empty database with every instance stopped:\n" +
  '  pg_restore --no-owner --dbname="$DATABASE_URL" vn-….dump\n';

export async function run(argv: string[]): Promise<number> {
  let config: Config;
  let out: string;
  try {
    const { values } = parseArgs({ args: argv, options: { out: { type: "string" } } });
    config = loadConfig();
    out = path.resolve(values.out ?? `vn-${new Date().toISOString().slice(0, 16).replace(":", "")}.tar.gz`);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (config.databaseUrl) {
    process.stderr.write(pgDumpAdvice);
    return 2;
  }
  let tarball = await backupFromRunningServer(config.dataDir);
  const via = tarball ? "the running server" : "this command (no server running)";
  if (!tarball) {
    const database = await openDatabase({ pgliteDir: path.join(config.dataDir, "db") });
    try {
      const dump = database.dumpDataDir;
      if (!dump) throw new Error("this database cannot be dumped");
      tarball = Buffer.from(await (await dump()).arrayBuffer());
    } finally {
      await database.close();
    }
  }
  writeFileSync(out, tarball, { mode: 0o600 });
  process.stdout.write(
    `Backup of ${path.join(config.dataDir, "db")} written to ${out} (${tarball.length} bytes, taken by ${via}).\n` +
      "AUTH_SECRET is not in it: keep it apart (the audit chains verify only with it).\n",
  );
  return 0;
}
