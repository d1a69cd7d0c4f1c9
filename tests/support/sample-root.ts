/**
 * A smaller recorded sample for the tests of the loading flow (start, progress, shutdown, audit):
 * the fixtures' folders linked as they are, with an expected.json that lists only some BOE days.
 * The sample loader ingests the days listed there and every recorded EU act. The whole sample is
 * loaded by ingest-sample.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_REPLAY_ROOT } from "../../app/.server/sources/replay.ts";

export interface SampleRoot {
  root: string;
  remove(): void;
}

/** A sample of the given recorded days (YYYYMMDD, as in expected.json). */
export function sampleRootOf(days: string[]): SampleRoot {
  const root = mkdtempSync(path.join(tmpdir(), "sample-root-"));
  for (const entry of readdirSync(DEFAULT_REPLAY_ROOT)) {
    if (entry !== "expected.json") symlinkSync(path.join(DEFAULT_REPLAY_ROOT, entry), path.join(root, entry));
  }
  const expected = JSON.parse(readFileSync(path.join(DEFAULT_REPLAY_ROOT, "expected.json"), "utf8")) as {
    boe: Record<string, string[]>;
  };
  const missing = days.filter((day) => !(day in expected.boe));
  if (missing.length > 0) throw new Error(`not recorded: ${missing.join(", ")}`);
  const boe = Object.fromEntries(Object.entries(expected.boe).filter(([day]) => days.includes(day)));
  writeFileSync(path.join(root, "expected.json"), JSON.stringify({ ...expected, boe }));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
