/**
 * The replay's EU side for consolidated versions (fixtures/sources/README.md, "EU consolidated
 * versions"): a SPARQL query naming an act's CELEX number and the consolidation relation is
 * answered with one binding per recorded version (`celex`, `date`), and the replay can be set to
 * a date: versions dated after it are hidden (left out of the answer, 404 on their text), so a
 * test can watch a new version appear by moving the date forward.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { splitConsolidatedCelex } from "./parse.ts";

const ACT_CELEX = /\b3\d{4}[A-Z]{1,2}\d{4}\b/g;

/** True when the query asks for consolidated versions (Cellar's consolidation relation). */
export function isConsolidationQuery(query: string): boolean {
  return /consolidat/i.test(query);
}

/** The recorded versions of the acts named in the query, up to `asOf` (YYYY-MM-DD) when set. */
export function consolidatedVersionsAnswer(root: string, query: string, asOf: string | null): string {
  const dir = path.join(root, "cellar/resource/celex");
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const bindings: Array<Record<string, { type: string; value: string; datatype?: string }>> = [];
  for (const act of new Set(query.match(ACT_CELEX) ?? [])) {
    const prefix = `0${act.slice(1)}-`;
    for (const file of files.sort()) {
      if (!file.startsWith(prefix) || !file.endsWith(".xhtml")) continue;
      const celex = file.slice(0, -".xhtml".length);
      const split = splitConsolidatedCelex(celex);
      if (!split || (asOf && split.date > asOf)) continue;
      bindings.push({
        act: { type: "literal", value: act },
        celex: { type: "literal", value: celex },
        date: { type: "literal", value: split.date, datatype: "http://www.w3.org/2001/XMLSchema#date" },
      });
    }
  }
  return JSON.stringify({
    head: { link: [], vars: ["act", "celex", "date"] },
    results: { distinct: false, ordered: true, bindings },
  });
}

/** A consolidated version's text requested while the replay stands before its date: hidden (404). */
export function isHiddenVersion(pathname: string, asOf: string | null): boolean {
  if (!asOf) return false;
  const m = /^\/resource\/celex\/([0-9A-Z-]+)$/i.exec(pathname);
  const split = m ? splitConsolidatedCelex(decodeURIComponent(m[1] ?? "")) : null;
  return split !== null && split.date > asOf;
}
