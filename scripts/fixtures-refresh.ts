/**
 * npm run fixtures:refresh [-- --from DIR] [--check]
 * Refreshes the project's copy of the recorded payloads and reference vocabularies
 * (fixtures/sources, fixtures/reference) from their origin folder: the steering checkout's
 * shared fixtures, which sit beside the project as ../shared/fixtures (FIXTURES_ORIGIN or
 * --from for another place). The copy is exact: files gone from the origin are removed.
 * --check only compares and exits 1 when the copy differs. Nothing else in the project
 * reads the origin: everything reads fixtures/ through app/.server/fixtures-path.ts.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { fixturesDir, projectRoot } from "../app/.server/fixtures-path.ts";

/** The folders copied from the origin; fixtures/classify (the labelled set) is the project's own. */
const COPIED = ["sources", "reference"] as const;

function listFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(root)) return files;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(root, full), createHash("sha256").update(readFileSync(full)).digest("hex"));
  }
  return files;
}

function differences(from: string, to: string): string[] {
  const origin = listFiles(from);
  const copy = listFiles(to);
  const out: string[] = [];
  for (const [file, hash] of origin) {
    if (!copy.has(file)) out.push(`missing  ${file}`);
    else if (copy.get(file) !== hash) out.push(`changed  ${file}`);
  }
  for (const file of copy.keys()) if (!origin.has(file)) out.push(`extra    ${file}`);
  return out;
}

const { values } = parseArgs({ options: { from: { type: "string" }, check: { type: "boolean" } } });
const origin = path.resolve(values.from ?? process.env.FIXTURES_ORIGIN ?? path.join(projectRoot, "../shared/fixtures"));
const missing = COPIED.filter((name) => !existsSync(path.join(origin, name)));
if (missing.length > 0) {
  process.stderr.write(
    `fixtures:refresh: the origin ${origin} has no ${missing.join(" or ")} folder; pass --from DIR (the folder holding sources/ and reference/)\n`,
  );
  process.exit(2);
}

let changed = 0;
for (const name of COPIED) {
  const from = path.join(origin, name);
  const to = path.join(fixturesDir, name);
  const diff = differences(from, to);
  changed += diff.length;
  for (const line of diff) process.stdout.write(`${name}/${line.slice(9)}: ${line.slice(0, 8).trim()}\n`);
  if (!values.check && diff.length > 0) {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true });
  }
}
if (values.check) {
  process.stdout.write(changed === 0 ? "fixtures match their origin\n" : `${changed} file(s) differ from ${origin}\n`);
  process.exit(changed === 0 ? 0 : 1);
}
process.stdout.write(
  changed === 0
    ? "fixtures already up to date\n"
    : `${changed} file(s) refreshed from ${origin}; review with git status\n`,
);
