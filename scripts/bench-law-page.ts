/**
 * Law page figures (issue 25): `npm run bench:law-page`.
 *
 * 1. The word-level comparison of the largest recorded article pair (the longest wording among
 *    blocks with at least two versions, BOE and EU), target < 50 ms.
 * 2. The largest recorded law's page (BOE-A-1985-5392, 231 blocks) server-rendered by the built
 *    app on PGlite, signed in over HTTP: p50/p95/max of sequential GETs of its heaviest part,
 *    target p95 < 300 ms; its first part, the whole text and an earlier date beside it; and the
 *    comparison page for the largest pair.
 * Options: --runs N (default 40), --skip-page (comparison only; no build needed).
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { compareWordings, paragraphsOfHtml } from "../app/.server/law-texts/diff.ts";
import { registerLaw } from "../app/.server/law-texts/store.ts";
import { pollConsolidated } from "../app/.server/sources/consolidated/poll.ts";
import { parseEuConsolidated } from "../app/.server/sources/eu-consolidated/parse.ts";
import { createSourceHttp } from "../app/.server/sources/http.ts";
import { startReplayServer } from "../app/.server/sources/replay.ts";
import { setupOwnerOverHttp } from "../tests/support/http-session.ts";
import { startInProcessServer } from "../tests/support/in-process-server.ts";
import { recordedBoeBlocks, recordedEuVersions } from "../tests/support/law-fixtures.ts";

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1]) || 40;
const skipPage = args.includes("--skip-page");

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
const ms = (v: number) => `${v.toFixed(1)} ms`;

function timeIt(fn: () => void, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

// ---- 1. comparison ----
interface Pair {
  label: string;
  before: string[];
  after: string[];
  chars: number;
}
const pairs: Pair[] = [];
for (const block of recordedBoeBlocks()) {
  for (let i = 1; i < block.versions.length; i++) {
    const before = paragraphsOfHtml(block.versions[i - 1]!.html);
    const after = paragraphsOfHtml(block.versions[i]!.html);
    pairs.push({
      label: `${block.lawId} ${block.blockId} (${block.versions[i - 1]!.normId} → ${block.versions[i]!.normId})`,
      before,
      after,
      chars: Math.max(before.join("\n").length, after.join("\n").length),
    });
  }
}
for (const [act, versions] of recordedEuVersions()) {
  const parsed = versions.map((v) => ({ celex: v.celex, text: parseEuConsolidated(readFileSync(v.file, "utf8")) }));
  for (let i = 1; i < parsed.length; i++) {
    const older = new Map(parsed[i - 1]!.text.blocks.map((b) => [b.blockId, b]));
    for (const block of parsed[i]!.text.blocks) {
      const old = older.get(block.blockId);
      if (!old || block.kind === "heading") continue;
      if (old.paragraphs.join("\n") === block.paragraphs.join("\n")) continue;
      pairs.push({
        label: `${act} ${block.blockId} (${parsed[i - 1]!.celex} → ${parsed[i]!.celex})`,
        before: old.paragraphs,
        after: block.paragraphs,
        chars: Math.max(old.paragraphs.join("\n").length, block.paragraphs.join("\n").length),
      });
    }
  }
}
pairs.sort((a, b) => b.chars - a.chars);
const boeLargest = pairs.find((p) => p.label.startsWith("BOE-"))!;
const euLargest = pairs.find((p) => !p.label.startsWith("BOE-"))!;
console.log(`Word-level comparison (${pairs.length} recorded pairs of consecutive versions):`);
for (const pair of [boeLargest, euLargest]) {
  timeIt(() => compareWordings(pair.before, pair.after), 5);
  const times = timeIt(() => compareWordings(pair.before, pair.after), runs);
  const diff = compareWordings(pair.before, pair.after);
  console.log(
    `  largest ${pair.label.startsWith("BOE-") ? "BOE" : "EU"} pair: ${pair.label}, ${pair.chars} characters, ${diff.insertedWords} words added, ${diff.deletedWords} removed`,
  );
  console.log(
    `    ${runs} runs: median ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, max ${ms(Math.max(...times))} (target < 50 ms)`,
  );
}
const all = performance.now();
for (const pair of pairs) compareWordings(pair.before, pair.after);
console.log(`  every recorded pair once: ${ms(performance.now() - all)} in total`);

// ---- 2. the page ----
if (!skipPage) {
  const LAW = "BOE-A-1985-5392";
  const replay = await startReplayServer();
  const server = await startInProcessServer({ BOE_API_URL: replay.url });
  try {
    await registerLaw(server.app.database, LAW, "boe");
    await pollConsolidated(
      {
        database: server.app.database,
        http: createSourceHttp({ userAgent: "bench", source: "boe", perSecond: 10_000, retries: 0 }),
        baseUrl: replay.url,
        log: { info() {}, warn() {} },
      },
      { only: [LAW] },
    );
    const client = await setupOwnerOverHttp(server.url, server.dataDir);
    // A law page is reached only by an organisation that follows the law (issue 37, decision 0124):
    // the owner follows it, as from the catalogue.
    await server.app.database.rows(sql`insert into alert_profiles (id, organization_id, user_id, name, law_id)
      select gen_random_uuid(), m.organization_id, m.user_id, 'Ley seguida', ${LAW} from auth_member m limit 1`);
    const measure = async (path: string, n: number) => {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < n + 3; i++) {
        const t0 = performance.now();
        const response = await client.request(path);
        const body = await response.text();
        if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
        bytes = body.length;
        if (i >= 3) times.push(performance.now() - t0);
      }
      return { times, bytes };
    };
    // The page shows one part of a long law (app/.server/laws/parts.ts): the figure is the
    // heaviest part's, found by fetching each part once; the first part and the whole text beside it.
    const first = await client.request(`/app/laws/${LAW}`);
    const firstHtml = await first.text();
    const total = Number(/Parte 1 de (\d+)|Part 1 of (\d+)/.exec(firstHtml)?.slice(1).find(Boolean) ?? 1);
    let heaviest = { part: 1, bytes: firstHtml.length };
    for (let part = 2; part <= total; part++) {
      const html = await (await client.request(`/app/laws/${LAW}?part=${part}`)).text();
      if (html.length > heaviest.bytes) heaviest = { part, bytes: html.length };
    }
    const line = (label: string, m: { times: number[]; bytes: number }, target = "") =>
      console.log(
        `  ${label}: p50 ${ms(percentile(m.times, 50))}, p95 ${ms(percentile(m.times, 95))}, max ${ms(Math.max(...m.times))}${target}, ${(m.bytes / 1024).toFixed(0)} KiB of HTML`,
      );
    console.log(
      `\nThe largest recorded law's page, server-rendered on PGlite (${LAW}, ${total} parts), ${runs} sequential GETs:`,
    );
    const page = await measure(`/app/laws/${LAW}?part=${heaviest.part}`, runs);
    line(`/app/laws/${LAW}?part=${heaviest.part} (the heaviest part)`, page, " (target p95 < 300 ms)");
    line(`/app/laws/${LAW} (the first part)`, await measure(`/app/laws/${LAW}`, runs));
    line(`…?part=all (the whole text)`, await measure(`/app/laws/${LAW}?part=all`, runs));
    const dated = await measure(`/app/laws/${LAW}?date=2000-01-01&part=${heaviest.part}`, runs);
    line(`…?date=2000-01-01&part=${heaviest.part}`, dated);
    const largestBlock = pairs.filter((p) => p.label.startsWith(LAW))[0];
    const blockId = largestBlock?.label.split(" ")[1] ?? "a22";
    const compare = await measure(`/app/laws/${LAW}/compare?block=${encodeURIComponent(blockId)}`, runs);
    console.log(
      `  /app/laws/${LAW}/compare?block=${blockId}: p50 ${ms(percentile(compare.times, 50))}, p95 ${ms(percentile(compare.times, 95))}, max ${ms(Math.max(...compare.times))}`,
    );
  } finally {
    await server.stop();
    await replay.close();
  }
}
