/**
 * loadSampleData ingests every recorded day and act in-process, marks them sample, and adds
 * nothing when run again; it leaves the sources' live status alone and its provenance names the
 * official URLs the recordings came from.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { DEFAULT_REPLAY_ROOT } from "../../app/.server/sources/replay.ts";
import { loadSampleData } from "../../app/.server/sources/sample.ts";

const expected = JSON.parse(readFileSync(path.join(DEFAULT_REPLAY_ROOT, "expected.json"), "utf8")) as {
  boe: Record<string, string[]>;
  eurlex: string[];
};
const total = Object.values(expected.boe).reduce((n, ids) => n + ids.length, 0) + expected.eurlex.length;
const silent = { info() {}, warn() {}, error() {} };

describe("sample data", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
    await migrate(database, defaultMigrationsDir);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("loads every recorded document once, marked sample", async () => {
    const seen: boolean[] = [];
    const first = await loadSampleData({ database, log: silent, onDocument: (_id, isNew) => void seen.push(isNew) });
    expect(first.failed).toBe(0);
    expect(first.created).toBe(total);
    expect(seen.filter(Boolean)).toHaveLength(total);
    const [row] = await database.rows<{ n: string; samples: string }>(
      sql`select count(*)::text as n, count(*) filter (where sample)::text as samples from documents`,
    );
    expect(row).toEqual({ n: String(total), samples: String(total) });
    const again = await loadSampleData({ database, log: silent });
    expect(again.created).toBe(0);
    // Nothing was reached: the sources' live status (Sources page) is untouched (issue 37, item 11).
    expect(await database.rows(sql`select source from source_status`)).toEqual([]);
    // Provenance names the official URL each recording came from, marked sample.
    const provenance = await database.rows<{ url: string; sample: boolean | null }>(
      sql`select p->>'url' as url, (p->>'sample')::boolean as sample
        from documents, jsonb_array_elements(record->'provenance') p`,
    );
    expect(provenance.length).toBeGreaterThan(total);
    const hosts = new Set(provenance.map((p) => new URL(p.url).origin));
    expect([...hosts].sort()).toEqual([
      "https://eur-lex.europa.eu",
      "https://publications.europa.eu",
      "https://www.boe.es",
    ]);
    expect(provenance.every((p) => p.sample === true)).toBe(true);
    // The recorded consolidated laws too (issue 39): eight BOE laws and three EU acts, read once.
    expect(first.laws).toBe(11);
    expect(again.laws).toBe(11);
    // The last recorded day published again as the day of the first load, dates shifted; a second load keeps it.
    expect(first.replayed?.from).toBe(
      Object.keys(expected.boe)
        .sort()
        .at(-1)
        ?.replace(/^(\d{4})(\d{2})(\d{2})$/, "$1-$2-$3"),
    );
    expect(again.replayed).toEqual(first.replayed);
  }, 900_000);
});
