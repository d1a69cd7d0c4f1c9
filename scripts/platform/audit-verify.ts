/**
 * `npm run platform -- audit:verify`: recomputes every organisation's audit hash chain and
 * prints, per organisation, valid or BROKEN, the number of events and the first broken event.
 * Exit code 1 when any chain is broken. Same DATA_DIR / DATABASE_URL as the server.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { formatVerification, verifyAllAuditChains } from "../../app/.server/audit/verify-all.ts";
import { type Config, loadConfig } from "../../app/.server/config.ts";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";

export const summary = "verify every organisation's audit hash chain; exit 1 if one is broken";

export async function run(argv: string[]): Promise<number> {
  let json: boolean;
  let config: Config;
  try {
    json = parseArgs({ args: argv, options: { json: { type: "boolean", default: false } } }).values.json;
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: npm run platform -- audit:verify [--json]\n`);
    return 2;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, "db"),
  });
  try {
    await migrate(database, defaultMigrationsDir);
    const results = await verifyAllAuditChains(database.db);
    process.stdout.write(json ? `${JSON.stringify(results, null, 2)}\n` : formatVerification(results));
    return results.every((result) => result.valid) ? 0 : 1;
  } finally {
    await database.close();
  }
}
