/**
 * The replay's EU side for consolidated versions (fixtures/sources/README.md, "EU consolidated
 * versions"): a SPARQL query naming an act's CELEX number and the consolidation relation is
 * answered with one binding per recorded version (`celex`, `date`), and the replay can be set to
 * a date: versions dated after it are hidden (left out of the answer, 404 on their text), so a
 * test can watch a new version appear by moving the date forward.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseEuConsolidated, splitConsolidatedCelex } from "./parse.ts";

const ACT_CELEX = /\b3\d{4}[A-Z]{1,2}\d{4}\b/g;

/** True when the query asks for consolidated versions (Cellar's consolidation relation). */
export function isConsolidationQuery(query: string): boolean {
  return /consolidat/i.test(query);
}

/** True when a consolidation query names no act: the list of acts with consolidated versions (the law catalogue). */
export function isCatalogueQuery(query: string): boolean {
  return isConsolidationQuery(query) && !/\b3\d{4}[A-Z]{1,2}\d{4}\b/.test(query.replaceAll(/<[^>]*>/g, ""));
}

type Binding = Record<string, { type: string; value: string; datatype?: string; "xml:lang"?: string }>;

/**
 * The acts the recordings hold (a recorded metadata answer or consolidated versions), one binding
 * each (`celex`, `title`, `date`, `force`, `rtype`, `eli`), ordered by CELEX and paged by the
 * query's LIMIT and OFFSET. An act recorded only as consolidated versions takes its title from
 * the latest version's text.
 */
export function euCatalogueAnswer(root: string, query: string): string {
  const acts = new Map<string, Binding>();
  const sparqlDir = path.join(root, "cellar/sparql");
  for (const file of existsSync(sparqlDir) ? readdirSync(sparqlDir).sort() : []) {
    if (!file.endsWith(".json")) continue;
    const recorded = JSON.parse(readFileSync(path.join(sparqlDir, file), "utf8")) as {
      results?: { bindings?: Binding[] };
    };
    const first = recorded.results?.bindings?.[0];
    const celex = first?.celex?.value;
    if (!first || !celex || acts.has(celex)) continue;
    const pick: Binding = {};
    for (const name of ["celex", "title", "date", "force", "rtype", "eli"]) {
      const cell = first[name];
      if (cell) pick[name] = cell;
    }
    acts.set(celex, pick);
  }
  const textDir = path.join(root, "cellar/resource/celex");
  const versions = (existsSync(textDir) ? readdirSync(textDir) : []).filter((f) => f.endsWith(".xhtml")).sort();
  for (const file of versions) {
    const split = splitConsolidatedCelex(file.slice(0, -".xhtml".length));
    if (!split || acts.has(split.actCelex)) continue;
    const latest = versions.filter((f) => f.startsWith(`0${split.actCelex.slice(1)}-`)).at(-1) ?? file;
    const text = parseEuConsolidated(readFileSync(path.join(textDir, latest), "utf8"));
    acts.set(split.actCelex, {
      celex: { type: "literal", value: split.actCelex },
      title: { type: "literal", value: text.title, "xml:lang": "en" },
    });
  }
  const limit = Number(/\bLIMIT\s+(\d+)/i.exec(query)?.[1] ?? 1000);
  const offset = Number(/\bOFFSET\s+(\d+)/i.exec(query)?.[1] ?? 0);
  const bindings = [...acts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, binding]) => binding)
    .slice(offset, offset + limit);
  return JSON.stringify({
    head: { link: [], vars: ["celex", "title", "titleEs", "date", "force", "rtype", "eli"] },
    results: { distinct: false, ordered: true, bindings },
  });
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
