/**
 * Where the project's bundled data lives (fixtures/, see fixtures/README.md): the recorded
 * source payloads the replay server and the sample data serve, the reference vocabularies
 * and the labelled set. Every reader resolves its paths here; nothing reads outside the
 * project. FIXTURES_DIR points everything at another copy (same layout).
 */
import { existsSync } from "node:fs";
import path from "node:path";

/** The folder holding the project's package.json, found from this file (source or build/server). */
function findProjectRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "fixtures"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(start, "../..");
    dir = parent;
  }
}

export const projectRoot = findProjectRoot(import.meta.dirname);

/** The fixtures folder: FIXTURES_DIR, else fixtures/ in the project. */
export const fixturesDir = path.resolve(process.env.FIXTURES_DIR || path.join(projectRoot, "fixtures"));

/** Recorded payloads of the official sources, laid out by URL path (fixtures/sources/README.md). */
export const sourcesFixturesDir = path.join(fixturesDir, "sources");

/** Code tables of the BOE and EuroVoc labels (fixtures/reference/README.md). */
export const referenceFixturesDir = path.join(fixturesDir, "reference");

/** The classification's labelled set (docs/classification.md). */
export const labelledSetPath = path.join(fixturesDir, "classify/labelled.jsonl");

/**
 * Common passwords and the words they are built from (brotli, one a line; passwords.ts). Product
 * data rather than a recording, so it is read from this project's folder whatever FIXTURES_DIR says.
 */
export const commonPasswordsFile = path.join(projectRoot, "fixtures/auth/common-passwords.txt.br");

/** A file of the recorded sources, by its path relative to fixtures/sources. */
export function sourceFixture(relative: string): string {
  return path.join(sourcesFixturesDir, relative);
}

/**
 * The search's Spanish–English thesaurus pairs (scripts/search-lexicon.ts writes it). Read from the
 * project's folder when the first search needs it, not bundled: as a bundled literal, its text stayed
 * in memory for the process's life (1.1 MB) beside the table built from it.
 */
export const searchLexiconFile = path.join(projectRoot, "app/.server/documents/search-lexicon.json");
