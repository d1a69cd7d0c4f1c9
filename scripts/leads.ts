/**
 * Operators' tool for demo requests (same DATA_DIR / DATABASE_URL as the server):
 *   npm run leads -- list                  latest requests with their delivery state
 *   npm run leads -- export --format csv   every request as CSV (spreadsheet formulas neutralised)
 *   npm run leads -- erase --email ADDRESS GDPR erasure: requests, their outbox rows, flash state
 *   npm run leads -- retry-dead            queue dead mails again
 * With PGlite, stop the server first: the embedded database takes one process at a time.
 */

import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../app/.server/config.ts";
import { createContactStore, type Lead } from "../app/.server/contact/store.ts";
import { openDatabase } from "../app/.server/db/client.ts";
import { migrate } from "../app/.server/db/migrate.ts";
import { contactFieldNames } from "../app/lib/contact-fields.ts";
import { csvCell } from "../app/lib/csv.ts";

const columns: (keyof Lead)[] = ["id", "createdAt", "locale", ...contactFieldNames, "userAgent"];

/** Every request as CSV; cells a spreadsheet would run as a formula get a leading quote. */
export function toCsv(leads: Lead[]): string {
  const lines = [columns.join(",")];
  for (const lead of leads) lines.push(columns.map((column) => csvCell(lead[column])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { format: { type: "string", default: "csv" }, email: { type: "string" } },
  });
  const command = positionals[0];
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, "db"),
  });
  try {
    await migrate(database, path.resolve(import.meta.dirname, "../drizzle"));
    const store = createContactStore(database, config.formSecret);
    switch (command) {
      case "list": {
        for (const lead of await store.list()) {
          process.stdout.write(
            `${lead.createdAt.toISOString()}  ${lead.id}  ${lead.delivery ?? "-"}(${lead.attempts ?? 0})  ${lead.name} ${lead.firstName} <${lead.email}>  ${lead.company}\n`,
          );
        }
        return 0;
      }
      case "export": {
        if (values.format !== "csv") throw new Error(`unknown format ${values.format}: only csv`);
        process.stdout.write(toCsv(await store.all()));
        return 0;
      }
      case "erase": {
        if (!values.email) throw new Error("erase needs --email ADDRESS");
        const result = await store.erase(values.email);
        process.stdout.write(`erased ${result.requests} request(s) and ${result.flash} form state(s)\n`);
        return 0;
      }
      case "retry-dead": {
        process.stdout.write(`${await store.retryDead()} dead mail(s) queued again\n`);
        return 0;
      }
      default:
        process.stderr.write(
          "usage: npm run leads -- list | export --format csv | erase --email ADDRESS | retry-dead\n",
        );
        return 2;
    }
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
