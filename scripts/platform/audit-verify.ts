/**
 * `npm run platform -- audit:verify`: recomputes every organisation's audit hash chain and
 * prints, per organisation, valid or BROKEN, the number of events, the first broken event and
 * the reason (deleted newest events, a forged purge anchor: decision 0084). Needs the server's
 * AUTH_SECRET (environment, or DATA_DIR/auth-secret as the server generated it).
 * Exit code 1 when any chain is broken. Same DATA_DIR / DATABASE_URL as the server.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { auditHeadsMigration, signUnsignedAuditRows } from "../../app/.server/audit/head.ts";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { setAuditRetentionDays } from "../../app/.server/audit/verify.ts";
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
    const applied = await migrate(database, defaultMigrationsDir);
    // Signatures are checked with AUTH_SECRET (the server's, from the environment or DATA_DIR).
    setAuditSecret(config.authSecret);
    setAuditRetentionDays(config.auditRetentionDays);
    if (applied.includes(auditHeadsMigration)) await signUnsignedAuditRows(database.db);
    const results = await verifyAllAuditChains(database.db);
    process.stdout.write(json ? `${JSON.stringify(results, null, 2)}\n` : formatVerification(results));
    return results.every((result) => result.valid) ? 0 : 1;
  } finally {
    await database.close();
  }
}
