/**
 * `npm run platform -- user:reset-mfa --email ana@example.com`: removes the user's second factor
 * (TOTP secret, recovery codes) and ends their sessions; at the next sign-in they enrol again.
 * Audited as `mfa.reset`. Same DATA_DIR / DATABASE_URL as the server (with PGlite, stop it first).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import * as z from "zod";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { createAuthService } from "../../app/.server/auth/service.ts";
import { type Config, loadConfig } from "../../app/.server/config.ts";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { createLogger } from "../../app/.server/logger.ts";

export const summary = "remove a user's second factor and sessions so they enrol again (--email)";

const usage = "usage: npm run platform -- user:reset-mfa --email ana@example.com\n";

export async function run(argv: string[]): Promise<number> {
  let config: Config;
  let email: string;
  try {
    const { values } = parseArgs({ args: argv, options: { email: { type: "string" } } });
    const parsed = z.email("--email must be an email address").safeParse(values.email);
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? "--email is required");
    email = parsed.data;
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, "db") });
  try {
    await migrate(database, defaultMigrationsDir);
    setAuditSecret(config.authSecret);
    const auth = createAuthService({ config, database, log: createLogger("warn") });
    if (!(await auth.resetMfa(email))) {
      process.stderr.write(`No user with the email ${email}.\n`);
      return 1;
    }
    process.stdout.write(
      `Second factor and sessions of ${email} removed: they set up MFA again at the next sign-in.\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}
