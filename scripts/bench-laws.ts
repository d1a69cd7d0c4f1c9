/**
 * Followed-law benchmarks (issue 25), on PGlite and (with TEST_DATABASE_URL) on PostgreSQL in a
 * throwaway database: a changed law (the largest recorded one, BOE-A-1985-5392, 231 blocks)
 * matched against N follows (default 10,000) across 100 organisations: a third follow the whole
 * law, a third a title or chapter, a third chosen articles; a third of them mail immediately.
 * Prints, best and median of a few changes: the time to find the matching follows; the time to
 * store every match (and the law.changed events), after which the alerts are safe (target < 1 s);
 * and the fan-out that follows, writing every match's deliveries in batches.
 * Usage: npm run bench:laws [-- --follows 10000 --runs 3]
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import type { Recipient } from "../app/.server/alerts/matching.ts";
import type { Database } from "../app/.server/db/client.ts";
import { sourcesFixturesDir } from "../app/.server/fixtures-path.ts";
import { recordConsolidatedChange } from "../app/.server/law-texts/changes.ts";
import { upsertLaw, writeBlock } from "../app/.server/law-texts/store.ts";
import { fanOutLawMatches, findMatchingFollows, storeLawMatches } from "../app/.server/laws/matching.ts";
import { parseWholeLaw } from "../app/.server/sources/consolidated/parse.ts";
import { memoryDirectory, openMigrated } from "../tests/support/alerts-fixtures.ts";
import { databaseTargets } from "../tests/support/postgres.ts";

const { values: args } = parseArgs({
  options: { follows: { type: "string", default: "10000" }, runs: { type: "string", default: "3" } },
});
const followCount = Number(args.follows);
const runs = Number(args.runs);
const LAW = "BOE-A-1985-5392";

async function seed(database: Database) {
  const xml = readFileSync(
    path.join(sourcesFixturesDir, "boe/datosabiertos/api/legislacion-consolidada/id", `${LAW}.xml`),
    "utf8",
  );
  const { metadata, blocks } = parseWholeLaw(xml);
  await upsertLaw(database, {
    id: LAW,
    source: "boe",
    title: metadata.title,
    eli: metadata.eli,
    metadata: metadata.fields,
    updatedAt: metadata.updatedAt,
  });
  const provenance = { url: "bench", fetchedAt: new Date().toISOString(), sha256: "0".repeat(64) };
  for (const [position, block] of blocks.entries()) {
    const latestDate = block.versions.reduce((max, v) => (v.publishedOn > max ? v.publishedOn : max), "0000-00-00");
    await writeBlock(database, LAW, { ...block, position, latestDate, provenance });
  }
  const headings = blocks.filter((b) => b.kind === "encabezado").map((b) => b.blockId);
  const articles = blocks.filter((b) => b.kind === "precepto").map((b) => b.blockId);
  const users: Recipient[] = [];
  const rows = [];
  for (let i = 0; i < followCount; i++) {
    const userId = `bench-u${i}`;
    users.push({ userId, email: `${userId}@bench.example`, language: i % 2 ? "en" : "es" });
    const scope =
      i % 3 === 0
        ? []
        : i % 3 === 1
          ? [headings[i % headings.length]]
          : [articles[i % articles.length], articles[(i * 7) % articles.length], "a22"];
    rows.push({
      i: randomUUID(),
      o: `bench-org-${i % 100}`,
      u: userId,
      b: scope,
      e: i % 3 === 0 ? "immediate" : "off",
    });
  }
  for (let i = 0; i < rows.length; i += 2000) {
    await database.rows(sql`
      insert into alert_profiles (id, organization_id, user_id, name, email_mode, law_id, law_blocks)
      select (r->>'i')::uuid, r->>'o', r->>'u', 'bench', r->>'e', ${LAW}, array(select jsonb_array_elements_text(r->'b'))
      from jsonb_array_elements(${JSON.stringify(rows.slice(i, i + 2000))}::jsonb) r`);
  }
  return { blocks, directory: memoryDirectory(users, {}) };
}

for (const target of databaseTargets()) {
  const database = await openMigrated(await target.create());
  try {
    const { blocks, directory } = await seed(database);
    const times: number[] = [];
    const matchTimes: number[] = [];
    const fanOutTimes: number[] = [];
    let last = { matched: 0, deliveries: 0 };
    for (let run = 0; run < runs; run++) {
      // A new version of a22 (the most amended article) and of one more block each run.
      const other = blocks[(run * 37 + 11) % blocks.length];
      const writes = ["a22", other?.blockId ?? "a1"].map((blockId) => ({
        blockId,
        added: [
          {
            normId: `BOE-A-2099-${run + 1}`,
            publishedOn: "2099-01-01",
            inForceOn: "2099-01-02",
            html: "<p>x</p>",
            text: `Nueva redacción ${run}`,
            hash: `${run}`,
          },
        ],
        corrected: [],
      }));
      const changeId = await recordConsolidatedChange(database, LAW, writes);
      const matchStart = performance.now();
      await findMatchingFollows(database, { lawId: LAW, blockIds: ["a22", other?.blockId ?? "a1"] }, null);
      matchTimes.push(performance.now() - matchStart);
      const started = performance.now();
      const settings = { directory, siteUrl: "http://localhost:3000", mailFrom: "alertas@localhost" };
      const result = await storeLawMatches(database, changeId as string, settings);
      times.push(performance.now() - started);
      const fanOutStart = performance.now();
      const deliveries = await fanOutLawMatches(database, settings, { changeId: changeId as string });
      fanOutTimes.push(performance.now() - fanOutStart);
      last = { matched: result.matched, deliveries: result.deliveries + deliveries };
    }
    const sorted = [...times].sort((a, b) => a - b);
    const sortedMatch = [...matchTimes].sort((a, b) => a - b);
    const sortedFanOut = [...fanOutTimes].sort((a, b) => a - b);
    const median = (values: number[]) => values[Math.floor(values.length / 2)]?.toFixed(0);
    console.log(
      `${target.name}: a changed law against ${followCount} follows (100 organisations), over ${runs} changes:\n` +
        `  finding the matching follows: best ${sortedMatch[0]?.toFixed(0)} ms, median ${median(sortedMatch)} ms\n` +
        `  matched and stored (every match and law.changed event): best ${sorted[0]?.toFixed(0)} ms, median ${median(sorted)} ms (target < 1000 ms)\n` +
        `  then the fan-out (every delivery written, in batches): best ${sortedFanOut[0]?.toFixed(0)} ms, median ${median(sortedFanOut)} ms\n` +
        `  ${last.matched} follows matched, ${last.deliveries} deliveries`,
    );
  } finally {
    await database.close();
    await target.cleanup();
  }
}
