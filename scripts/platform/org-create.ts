/**
 * `npm run platform -- org:create --name "Acme" --admin-email ana@example.com [--locale es|en]`:
 * creates an organisation and invites its owner; prints the invitation link (valid 7 days). The
 * invitation mail is queued in the outbox and sent by the server. Same DATA_DIR / DATABASE_URL
 * as the server (with PGlite, stop the server first).
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

export const summary = "create an organisation and print its owner's invitation link (--name, --admin-email)";

const usage = 'usage: npm run platform -- org:create --name "Acme" --admin-email ana@example.com [--locale es|en]\n';
const argsSchema = z.object({
  name: z.string().trim().min(1, "--name is required").max(120, "--name is at most 120 characters"),
  adminEmail: z.email("--admin-email must be an email address"),
  locale: z.enum(["es", "en"], "--locale must be es or en"),
});

export async function run(argv: string[]): Promise<number> {
  let config: Config;
  let input: z.infer<typeof argsSchema>;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        name: { type: "string" },
        "admin-email": { type: "string" },
        locale: { type: "string", default: "es" },
      },
    });
    const parsed = argsSchema.safeParse({
      name: values.name ?? "",
      adminEmail: values["admin-email"],
      locale: values.locale,
    });
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? "invalid arguments");
    input = parsed.data;
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
    const created = await auth.createOrganizationWithOwnerInvitation({
      name: input.name,
      adminEmail: input.adminEmail,
      locale: input.locale,
    });
    process.stdout.write(
      `Organisation "${input.name}" created (${created.organizationId}).\nInvitation for ${input.adminEmail} (owner, valid 7 days):\n${created.url}\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}
