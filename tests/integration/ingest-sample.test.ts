/** loadSampleData ingests every recorded day and act in-process, marks them sample, and adds nothing when run again. */
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
  }, 300_000);
});
