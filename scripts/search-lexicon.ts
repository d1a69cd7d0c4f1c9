/**
 * node scripts/search-lexicon.ts [eurovoc-dir]: writes app/.server/documents/search-lexicon.json,
 * the Spanish–English pairs of the EuroVoc thesaurus (the Publications Office's concept labels,
 * the same id in both languages) that search uses to reach documents in the other language.
 * Source: fixtures/reference/eurovoc/concepts.{es,en}.json (bundled, never fetched at run time;
 * then `npm run format`, which wraps the long lines). Each pair carries its labels' stems
 * (search-stems.ts), so the server does not stem
 * 14,000 labels on its first search. Labels with a parenthesis (places: "Århus (county)") are left out.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stemKey } from "../app/.server/documents/search-stems.ts";
import { referenceFixturesDir } from "../app/.server/fixtures-path.ts";

const dir = process.argv[2] ?? path.join(referenceFixturesDir, "eurovoc");
const read = (name: string) => JSON.parse(readFileSync(path.join(dir, name), "utf8")) as Record<string, string>;
const es = read("concepts.es.json");
const en = read("concepts.en.json");
const pairs: [string, string, string, string][] = [];
for (const id of Object.keys(es).sort((a, b) => Number(a) - Number(b))) {
  const a = es[id]?.trim();
  const b = en[id]?.trim();
  if (!a || !b || a.includes("(") || b.includes("(")) continue;
  pairs.push([a, b, stemKey(a, "es").join(" "), stemKey(b, "en").join(" ")]);
}
const out = path.resolve(import.meta.dirname, "../app/.server/documents/search-lexicon.json");
// One pair a line, as the formatter (biome) writes it.
writeFileSync(
  out,
  `[\n${pairs.map((pair) => `  [${pair.map((text) => JSON.stringify(text)).join(", ")}]`).join(",\n")}\n]\n`,
);
console.log(`${pairs.length} pairs written to ${path.relative(process.cwd(), out)}`);
