/**
 * `npm run platform -- classify:eurovoc [--from DIR]`: rebuilds the bundled table of
 * EuroVoc concepts → areas (app/.server/classify/tables/eurovoc-areas.json) from the
 * EuroVoc labels in Spanish and English (default: fixtures/reference/eurovoc).
 * A concept goes to the first area one of whose terms (tables/eurovoc-terms.ts) is a
 * whole word or phrase of its Spanish or English label. Deterministic; no network.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../../app/.server/classify/labelled-set.ts";
import { eurovocAreaOf } from "../../app/.server/classify/tables/eurovoc-terms.ts";
import { referenceFixturesDir } from "../../app/.server/fixtures-path.ts";

export const summary = "rebuild the EuroVoc concept → area table from the EuroVoc labels (es and en)";

export async function run(argv: string[]): Promise<number> {
  const from = argv.includes("--from")
    ? path.resolve(argv[argv.indexOf("--from") + 1] ?? "")
    : path.join(referenceFixturesDir, "eurovoc");
  let es: Record<string, string>;
  let en: Record<string, string>;
  try {
    es = JSON.parse(readFileSync(path.join(from, "concepts.es.json"), "utf8")) as Record<string, string>;
    en = JSON.parse(readFileSync(path.join(from, "concepts.en.json"), "utf8")) as Record<string, string>;
  } catch (error) {
    process.stderr.write(
      `classify: cannot read the EuroVoc labels in ${from}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const concepts: Record<string, string> = {};
  const ids = [...new Set([...Object.keys(es), ...Object.keys(en)])].sort((a, b) => Number(a) - Number(b));
  for (const id of ids) {
    const area = eurovocAreaOf(es[id] ?? "", en[id] ?? "");
    if (area) concepts[id] = area;
  }
  const file = path.join(projectRoot, "app/.server/classify/tables/eurovoc-areas.json");
  writeFileSync(
    file,
    `${JSON.stringify({ source: "EuroVoc (© European Union, Decision 2011/833/EU), labels es and en", concepts }, null, 1)}\n`,
  );
  // Keep the committed file in the project's formatting (lint checks it).
  execFileSync(path.join(projectRoot, "node_modules/.bin/biome"), ["format", "--write", file], { stdio: "ignore" });
  const counts = new Map<string, number>();
  for (const area of Object.values(concepts)) counts.set(area, (counts.get(area) ?? 0) + 1);
  process.stdout.write(
    `${Object.keys(concepts).length} of ${ids.length} concepts mapped: ${[...counts.entries()]
      .sort()
      .map(([a, n]) => `${a} ${n}`)
      .join(", ")}\nwrote ${path.relative(projectRoot, file)}\n`,
  );
  return 0;
}
