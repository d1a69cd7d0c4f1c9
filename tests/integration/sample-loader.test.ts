/**
 * The sample's background loader on its own (PGlite): one load at a time, a shutdown stops it
 * after the day it is on and releases its claim (so it can be started again), and a finished
 * load is "loaded" and not started twice.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import { createSampleLoader } from "../../app/.server/sources/sample.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { type SampleRoot, sampleRootOf } from "../support/sample-root.ts";

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const sampleCount = async (database: Database) =>
  (await database.rows<{ n: number }>(sql`select count(*)::int as n from documents where sample`))[0]?.n ?? 0;

describe("sample loader", () => {
  let database: Database;
  // Two recorded days (55 and 132 documents) and the EU acts: the loader's behaviour, not the data's.
  let sample: SampleRoot;

  beforeAll(async () => {
    database = await openMigratedDatabase();
    sample = sampleRootOf(["20181206", "20260408"]);
  });
  afterAll(async () => {
    await database?.close();
    sample?.remove();
  });

  it("stops at shutdown after a day, is then not loaded, and a later load finishes once", async () => {
    const first = createSampleLoader({ database, log: silent, root: sample.root });
    expect(await first.status()).toBe("none");
    expect(await first.start()).toBe("started");
    expect(await first.start()).toBe("loading");
    expect(await first.status()).toBe("loading");
    // Another instance sees the claim and does not load too.
    const other = createSampleLoader({ database, log: silent, root: sample.root });
    expect(await other.status()).toBe("loading");
    expect(await other.start()).toBe("loading");
    // Shutdown once the first day's documents are in.
    const firstDeadline = Date.now() + 240_000;
    while ((await sampleCount(database)) === 0 && Date.now() < firstDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await first.stop();
    expect(await first.start()).toBe("already");
    // A load cut short is not "loaded" (even with some documents stored): it can be started again.
    const partial = await sampleCount(database);
    expect(partial).toBeGreaterThan(0);
    const second = createSampleLoader({ database, log: silent, root: sample.root });
    expect(await second.status()).toBe("none");
    expect(await second.start()).toBe("started");
    const deadline = Date.now() + 240_000;
    while ((await second.status()) !== "loaded" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await second.status()).toBe("loaded");
    expect(await sampleCount(database)).toBeGreaterThan(Math.max(partial, 1));
    expect(await second.start()).toBe("already");
    await second.stop();
  }, 300_000);
});
