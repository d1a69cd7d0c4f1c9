/**
 * The law catalogue's search (issue 39, decision 0140), on PGlite and (with TEST_DATABASE_URL) on
 * PostgreSQL in a throwaway database: the recorded laws and EU acts (the replay's lists, as the
 * daily job reads them) plus generated entries up to N (default 10,000) shaped like the BOE's and
 * Cellar's (rank, number, a title built from the words real titles use, a few with common
 * names), then a mix of queries as people type them — title words, numbers, ids, CELEX, acronyms,
 * English names, no accents — each run several times. Prints p50 and p95 per database, and the
 * same for a reference query (an id lookup by primary key) timed in the same run, so a figure
 * taken on a loaded machine can be read as a ratio. Target: p95 < 50 ms at 10,000 entries.
 * Usage: npm run bench:catalogue [-- --entries 10000 --runs 20]
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import type { Database } from "../app/.server/db/client.ts";
import { type CatalogueInput, searchCatalogue, upsertCatalogue } from "../app/.server/laws/catalogue.ts";
import { euNumber, syncCatalogue } from "../app/.server/sources/catalogue/sync.ts";
import { createSourceHttp } from "../app/.server/sources/http.ts";
import { startReplayServer } from "../app/.server/sources/replay.ts";
import { openMigratedDatabase } from "../tests/support/platform-db.ts";
import { databaseTargets } from "../tests/support/postgres.ts";

const { values: args } = parseArgs({
  options: { entries: { type: "string", default: "10000" }, runs: { type: "string", default: "20" } },
});
const entryCount = Number(args.entries);
const runs = Number(args.runs);

const RANKS = ["Ley", "Real Decreto", "Orden", "Real Decreto-ley", "Ley Orgánica", "Resolución", "Decreto"];
const SUBJECTS = [
  "protección de datos personales",
  "subvenciones públicas",
  "contratos del sector público",
  "prevención de riesgos laborales",
  "régimen jurídico de las entidades de crédito",
  "mercado de valores y servicios de inversión",
  "impuesto sobre el valor añadido",
  "procedimiento administrativo común",
  "seguridad social de los trabajadores autónomos",
  "ordenación del transporte terrestre",
  "telecomunicaciones y servicios audiovisuales",
  "energía eléctrica y autoconsumo",
  "prevención del blanqueo de capitales",
  "sociedades de capital y cooperativas",
  "aguas y dominio público hidráulico",
];
const VERBS = [
  "por la que se regula",
  "por el que se aprueba el Reglamento de",
  "de modificación de",
  "sobre",
  "relativa a",
];
const EU_SUBJECTS = [
  "prudential requirements for credit institutions",
  "markets in financial instruments",
  "the protection of natural persons with regard to the processing of personal data",
  "digital operational resilience for the financial sector",
  "plant protection products",
  "the approval and market surveillance of motor vehicles",
  "organic production and labelling",
  "a framework for the recovery and resolution of investment firms",
];
const MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "septiembre", "octubre", "noviembre"];

/** Entries shaped like the lists', deterministic (the same catalogue on every run and database). */
function generated(count: number): CatalogueInput[] {
  const out: CatalogueInput[] = [];
  for (let i = 0; i < count; i++) {
    const year = 1980 + (i % 46);
    if (i % 5 === 4) {
      const type = i % 3 === 0 ? "L" : "R";
      const celex = `3${year}${type}${String(1000 + (i % 9000)).padStart(4, "0")}`;
      const number = euNumber(celex);
      const kind = type === "L" ? "Directive" : "Regulation";
      out.push({
        id: celex,
        source: "eu",
        title: `${kind} (EU) ${number} of the European Parliament and of the Council on ${EU_SUBJECTS[i % EU_SUBJECTS.length]} (${i})`,
        titles: { en: `${kind} (EU) ${number} on ${EU_SUBJECTS[i % EU_SUBJECTS.length]}` },
        number,
        rank: kind,
        datedOn: `${year}-0${1 + (i % 9)}-1${i % 9}`,
        inForce: i % 7 !== 0,
      });
      continue;
    }
    const rank = RANKS[i % RANKS.length] as string;
    const number = `${1 + (i % 400)}/${year}`;
    const subject = SUBJECTS[(i * 7) % SUBJECTS.length];
    out.push({
      id: `BOE-A-${year}-${90_000 + i}`,
      source: "boe",
      title: `${rank} ${number}, de ${1 + (i % 28)} de ${MONTHS[i % MONTHS.length]}, ${VERBS[i % VERBS.length]} ${subject}.`,
      number,
      rank,
      datedOn: `${year}-0${1 + (i % 9)}-1${i % 9}`,
      inForce: i % 6 !== 0,
    });
  }
  return out;
}

const QUERIES: Array<[string, "es" | "en"]> = [
  ["Ley 38/2003", "es"],
  ["LOPDGDD", "es"],
  ["Ley General de Subvenciones", "es"],
  ["EMIR", "en"],
  ["GDPR", "en"],
  ["32016R0679", "es"],
  ["proteccion de datos", "es"],
  ["subvenciones", "es"],
  ["contratos del sector publico", "es"],
  ["market abuse", "en"],
  ["Digital Markets Act", "en"],
  ["2016/679", "es"],
  ["BOE-A-2015-10565", "es"],
  ["real decreto 887/2006", "es"],
  ["credit institutions", "en"],
  ["ley", "es"],
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function bench(name: string, database: Database, replay: { url: string; sparqlUrl: string }) {
  const http = (source: string) => createSourceHttp({ userAgent: "bench", source, perSecond: 10_000, retries: 0 });
  const silent = { info() {}, warn() {} };
  await syncCatalogue({
    database,
    boeHttp: http("boe"),
    cellarHttp: http("cellar"),
    boeApiUrl: replay.url,
    cellarSparqlUrl: replay.sparqlUrl,
    log: silent,
  });
  const [held] = await database.rows<{ n: number | string }>(sql`select count(*) as n from law_catalogue`);
  const loadStart = performance.now();
  await upsertCatalogue(database, generated(Math.max(0, entryCount - Number(held?.n ?? 0))));
  const loadMs = performance.now() - loadStart;
  // As the daily job does after a load.
  await database.rows(sql`analyze law_catalogue`);
  const [total] = await database.rows<{ n: number | string }>(sql`select count(*) as n from law_catalogue`);
  // Warm up (plans, caches), then time.
  for (const [q, locale] of QUERIES) await searchCatalogue(database, { q }, locale);
  const times: number[] = [];
  const perQuery = new Map<string, number[]>();
  const reference: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (const [q, locale] of QUERIES) {
      const ms = await time(() => searchCatalogue(database, { q }, locale));
      times.push(ms);
      perQuery.set(q, [...(perQuery.get(q) ?? []), ms]);
    }
    reference.push(await time(() => database.rows(sql`select id from law_catalogue where id = 'BOE-A-2015-10565'`)));
  }
  times.sort((a, b) => a - b);
  reference.sort((a, b) => a - b);
  const slowest = [...perQuery.entries()]
    .map(
      ([q, list]) =>
        [
          q,
          pct(
            [...list].sort((a, b) => a - b),
            95,
          ),
        ] as const,
    )
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([q, ms]) => `${q} ${ms.toFixed(1)}`)
    .join(", ");
  console.log(
    `${name}: ${total?.n} entries (generated ones stored in ${(loadMs / 1000).toFixed(1)} s); ` +
      `${times.length} searches: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms, ` +
      `max ${times.at(-1)?.toFixed(1)} ms (target p95 < 50 ms); slowest p95: ${slowest}; ` +
      `reference (primary-key lookup) p50 ${pct(reference, 50).toFixed(2)} ms`,
  );
}

const replay = await startReplayServer();
try {
  for (const target of databaseTargets()) {
    const database = await openMigratedDatabase(await target.create());
    try {
      await bench(target.name, database, replay);
    } finally {
      await database.close();
      await target.cleanup();
    }
  }
} finally {
  await replay.close();
}
