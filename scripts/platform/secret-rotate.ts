/**
 * `OLD_AUTH_SECRET=… npm run platform -- secret:rotate`: moves what the old AUTH_SECRET signed or
 * encrypted to the current one (AUTH_SECRET, or DATA_DIR/auth-secret), after verifying every audit
 * chain under the old one (decision 0144): audit heads and anchors re-signed, TOTP secrets, backup
 * codes and SSO client secrets re-encrypted, sessions ended. Every instance stopped first: an
 * instance still on the old secret would sign new heads with it. Exit 1 (nothing changed) when a
 * chain is broken under the old secret.
 */
import path from "node:path";
import { formatVerification } from "../../app/.server/audit/verify-all.ts";
import { rotateAuthSecret } from "../../app/.server/auth/rotate-secret.ts";
import { type Config, loadConfig } from "../../app/.server/config.ts";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";

export const summary = "carry signatures and encrypted secrets from OLD_AUTH_SECRET to AUTH_SECRET (instances stopped)";

const usage =
  "usage: OLD_AUTH_SECRET=<the secret in use until now> AUTH_SECRET=<the new one> npm run platform -- secret:rotate\n" +
  "(without AUTH_SECRET the new secret is DATA_DIR/auth-secret: write the new one there first)\n";

export async function run(argv: string[]): Promise<number> {
  let config: Config;
  const oldSecret = process.env.OLD_AUTH_SECRET ?? "";
  try {
    if (argv.length > 0) throw new Error(`unexpected argument ${argv[0]}`);
    if (oldSecret.length < 32) throw new Error("OLD_AUTH_SECRET must hold the previous secret (32+ characters)");
    config = loadConfig();
    if (config.authSecret === oldSecret) throw new Error("AUTH_SECRET is still the old secret: set the new one");
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, "db") });
  try {
    await migrate(database, defaultMigrationsDir);
    const result = await rotateAuthSecret(database, oldSecret, config.authSecret);
    if (result.broken.length > 0) {
      process.stderr.write(
        `${formatVerification(result.broken)}Nothing was changed: these chains do not verify under OLD_AUTH_SECRET (a wrong old secret, or tampering: audit:verify with it says more).\n`,
      );
      return 1;
    }
    process.stdout.write(
      `AUTH_SECRET rotated: ${result.heads} audit head(s) and ${result.anchors} anchor(s) re-signed, ` +
        `${result.secondFactors} second factor(s) and ${result.ssoSecrets} SSO client secret(s) re-encrypted, ` +
        `${result.sessionsEnded} session(s) ended (members sign in again; authenticator apps keep working).\n` +
        "Start every instance with the new AUTH_SECRET.\n",
    );
    return 0;
  } finally {
    await database.close();
  }
}
