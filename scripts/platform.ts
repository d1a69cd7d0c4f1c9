/**
 * Operators' commands for the platform: `npm run platform -- <command> [options]`.
 * Each command is a module in scripts/platform/ named after it (`org:create` is
 * org-create.ts) exporting `summary` and `run(argv): Promise<number>` (the exit code).
 * With PGlite, stop the server first: the embedded database takes one process at a time.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export interface PlatformCommand {
  /** One line for the help text. */
  summary: string;
  run(argv: string[]): Promise<number>;
}

const commandsDir = path.join(import.meta.dirname, "platform");

function commandNames(): string[] {
  return readdirSync(commandsDir)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => file.slice(0, -3).replace("-", ":"))
    .sort();
}

async function load(name: string): Promise<PlatformCommand> {
  return (await import(pathToFileURL(path.join(commandsDir, `${name.replace(":", "-")}.ts`)).href)) as PlatformCommand;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help") {
    const lines = ["usage: npm run platform -- <command> [options]", ""];
    for (const command of commandNames()) lines.push(`  ${command.padEnd(18)} ${(await load(command)).summary}`);
    process.stdout.write(`${lines.join("\n")}\n`);
    return name ? 0 : 1;
  }
  if (!/^[a-z]+(:[a-z-]+)?$/.test(name) || !existsSync(path.join(commandsDir, `${name.replace(":", "-")}.ts`))) {
    process.stderr.write(`unknown command "${name}"; npm run platform -- help lists them\n`);
    return 1;
  }
  return (await load(name)).run(rest);
}

process.exitCode = await main(process.argv.slice(2));
