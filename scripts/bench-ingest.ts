/**
 * npm run bench:ingest [-- --docs 100000 --runs 30 --max-seconds 600]
 * 1. Ingestion throughput: one recorded BOE day (2026-09-29, 253 items) from the replay
 *    server end to end (fetch, parse, store, index) on in-memory PGlite, and the process's
 *    peak RSS during it.
 * 2. Search latency (p50/p95) at --docs generated documents built from the recorded
 *    vocabulary (titles and texts of the fixtures), on PGlite and, when TEST_DATABASE_URL or
 *    DATABASE_URL is set, on a fresh PostgreSQL database (dropped afterwards).
 * Prints figures; generation stops at --max-seconds per database and says how many it made.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import pg from "pg";
import { type Database, openDatabase } from "../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../app/.server/db/migrate.ts";
import { type SearchParams, searchDocuments } from "../app/.server/documents/search.ts";
import { createSourceClients } from "../app/.server/sources/clients.ts";
import { ingestBoeDay } from "../app/.server/sources/ingest.ts";
import { DEFAULT_REPLAY_ROOT, startReplayServer } from "../app/.server/sources/replay.ts";

const { values } = parseArgs({
  options: {
    docs: { type: "string", default: "100000" },
    runs: { type: "string", default: "30" },
    "max-seconds": { type: "string", default: "600" },
  },
});
const targetDocs = Number(values.docs);
const runs = Number(values.runs);
const maxSeconds = Number(values["max-seconds"]);
const silent = { info() {}, warn() {}, error() {} };
const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

async function benchIngestion() {
  const replay = await startReplayServer();
  const database = await openDatabase({});
  await migrate(database, defaultMigrationsDir);
  const clients = createSourceClients({
    urls: { boeApiUrl: replay.url, eurlexUrl: replay.url, cellarUrl: replay.url, cellarSparqlUrl: replay.sparqlUrl },
    siteUrl: "http://localhost",
    perSecond: 100_000,
  });
  let peak = process.memoryUsage().rss;
  const before = peak;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  const result = await ingestBoeDay({ database, clients, log: silent, concurrency: 4 }, "2026-09-29");
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  console.log(
    `ingestion (PGlite, replay): ${result.created} documents in ${seconds.toFixed(1)} s = ${(result.created / seconds).toFixed(1)} documents/s; RSS ${mb(before)} before, peak ${mb(peak)} during (failed ${result.failed.length})`,
  );
  await database.close();
  await replay.close();
}

function vocabulary(): string[] {
  const words = new Set<string>();
  const add = (text: string) => {
    for (const w of text.split(/[^\p{L}\p{N}]+/u)) if (w.length > 2 && w.length < 25) words.add(w.toLowerCase());
  };
  const dir = path.join(DEFAULT_REPLAY_ROOT, "boe/diario_boe/xml.php");
  for (const file of readdirSync(dir).slice(0, 400))
    add(
      readFileSync(path.join(dir, file), "utf8")
        .replace(/<[^>]+>/g, " ")
        .slice(0, 20_000),
    );
  return [...words];
}

async function generate(database: Database, vocab: string[]): Promise<number> {
  await database.rows(sql`drop table if exists bench_vocab`);
  await database.rows(
    sql`create temporary table bench_vocab as select (row_number() over ())::int as id, w from jsonb_array_elements_text(${JSON.stringify(vocab)}::jsonb) as w`,
  );
  const batch = 2000;
  const deadline = Date.now() + maxSeconds * 1000;
  let made = 0;
  const kinds = ["royal-decree", "order", "resolution", "law", "announcement", "regulation"];
  const areas = ["banking", "data-protection", "tax", "energy", "labour", "public-procurement"];
  while (made < targetDocs && Date.now() < deadline) {
    const n = Math.min(batch, targetDocs - made);
    await database.rows(sql`
      insert into documents (source, source_id, title, language, titles, published_on, official_url, record, content_hash, body_text,
                             kind, jurisdiction, relevance, areas)
      select case when g % 10 = 0 then 'eurlex' else 'boe' end, 'BENCH-' || g, t.title, 'es', jsonb_build_object('es', t.title),
             to_char(date '2019-01-01' + (g % 2500), 'YYYY-MM-DD'), 'https://www.boe.es/', '{"provenance":[]}'::jsonb, md5(g::text), t.body,
             (${sql.raw(`array[${kinds.map((k) => `'${k}'`).join(",")}]`)})[1 + g % 6], case when g % 10 = 0 then 'EU' else 'ES' end,
             (array['high','medium','low'])[1 + g % 3], jsonb_build_array(jsonb_build_object('id', (${sql.raw(`array[${areas.map((k) => `'${k}'`).join(",")}]`)})[1 + g % 6], 'score', 0.8, 'reasons', '[]'::jsonb))
      from generate_series(${made + 1}::int, ${made + n}::int) g,
      lateral (select
        (select string_agg(v.w, ' ') from (select (1 + floor(random() * ${vocab.length}))::int as id from generate_series(1, 8 + g % 8)) r join bench_vocab v using (id)) as title,
        (select string_agg(v.w, ' ') from (select (1 + floor(random() * ${vocab.length}))::int as id from generate_series(1, 80 + g % 120)) r join bench_vocab v using (id)) as body) t`);
    made += n;
  }
  await database.rows(sql`analyze documents`);
  return made;
}

const queries: SearchParams[] = [
  { q: "proteccion de datos" },
  { q: "real decreto" },
  { q: "subvenciones" },
  { q: '"entidades de crédito"' },
  { q: "contratación -obras" },
  { q: "impuesto sobre sociedades", source: "boe" },
  { q: "resolución", from: "2023-01-01", to: "2023-12-31" },
  { area: "banking" },
  {},
];

async function benchSearch(name: string, database: Database) {
  const vocab = vocabulary();
  const started = performance.now();
  const made = await generate(database, vocab);
  console.log(
    `${name}: generated ${made} documents (vocabulary ${vocab.length} words) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const facets of [false, true]) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      for (const q of queries) {
        const t = performance.now();
        await searchDocuments(database, { ...q, facets });
        times.push(performance.now() - t);
      }
    }
    times.sort((a, b) => a - b);
    const pct = (p: number) =>
      (times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0).toFixed(1);
    console.log(
      `${name}: search ${facets ? "with" : "without"} facets over ${times.length} queries: p50 ${pct(50)} ms, p95 ${pct(95)} ms, max ${pct(100)} ms`,
    );
  }
}

await benchIngestion();
{
  const database = await openDatabase({});
  await migrate(database, defaultMigrationsDir);
  await benchSearch("PGlite", database);
  await database.close();
}
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (pgUrl) {
  const name = `bench_ingest_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString() });
    await migrate(database, defaultMigrationsDir);
    await benchSearch("PostgreSQL", database);
    await database.close();
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
} else {
  console.log("PostgreSQL: skipped (set TEST_DATABASE_URL or DATABASE_URL)");
}
