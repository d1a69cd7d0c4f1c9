/**
 * `npm run platform -- restore --from FILE`: replaces the embedded database (DATA_DIR/db) with a
 * backup made by `backup`; the server must be stopped (the command refuses while one answers on
 * DATA_DIR/ops.sock). The database it replaces is kept beside it as db.before-restore-<time>.
 * The next start applies any newer migrations. With DATABASE_URL: pg_restore (the command says how).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { type Config, loadConfig } from "../../app/.server/config.ts";
import { opsSocketPath, restoreDataDir, socketAnswers } from "../../app/.server/db/backup.ts";
import { openDatabase } from "../../app/.server/db/client.ts";
import { pgDumpAdvice } from "./backup.ts";

export const summary = "replace the embedded database with a backup (--from FILE); the server stopped";

const usage = "usage: npm run platform -- restore --from vn-2026-12-06.tar.gz\n";

export async function run(argv: string[]): Promise<number> {
  let config: Config;
  let from: string;
  try {
    const { values } = parseArgs({ args: argv, options: { from: { type: "string" } } });
    if (!values.from) throw new Error("--from is required");
    from = path.resolve(values.from);
    if (!existsSync(from)) throw new Error(`no file ${from}`);
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (config.databaseUrl) {
    process.stderr.write(pgDumpAdvice);
    return 2;
  }
  if (await socketAnswers(opsSocketPath(config.dataDir))) {
    process.stderr.write(`A server is running on ${config.dataDir}: stop it, then restore.\n`);
    return 1;
  }
  try {
    const { previous, migrations } = await restoreDataDir(config.dataDir, readFileSync(from), (dir, tarball) =>
      openDatabase({ pgliteDir: dir, loadDataDir: tarball }),
    );
    process.stdout.write(
      `Restored ${path.join(config.dataDir, "db")} from ${from} (${migrations} migrations recorded in it).\n` +
        (previous ? `The database it replaced is kept in ${previous}; delete it once the restore is checked.\n` : "") +
        "Start the server (it applies newer migrations), then check: npm run platform -- audit:verify\n",
    );
    return 0;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nNothing was changed.\n`);
    return 1;
  }
}
