/**
 * npm run platform -- search:eval [--queries file] [--pglite-dir dir] [--show]
 * Loads the recorded days and EUR-Lex acts (the sample data, classified by the real classifier)
 * into PGlite, runs every judged query of fixtures/search/queries.json through the search, and
 * prints precision@10 and nDCG@10 per query and per language. --pglite-dir keeps the loaded
 * copy in a folder and reuses it next time; --show lists each query's first ten with their grades.
 * Exit code 0 after printing, 1 when the queries or the fixtures cannot be read, 2 on bad options.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { classify } from "../../app/.server/classify/classify.ts";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { evaluateSearch, formatReport, readJudgedQueries } from "../../app/.server/documents/search-eval.ts";
import { loadSampleData } from "../../app/.server/sources/sample.ts";

export const summary = "precision@10 and nDCG@10 of the search on judged queries over the recorded documents";

export const defaultQueriesFile = path.resolve(import.meta.dirname, "../../fixtures/search/queries.json");

export async function run(argv: string[]): Promise<number> {
  let values: { queries?: string | undefined; "pglite-dir"?: string | undefined; show?: boolean | undefined };
  try {
    values = parseArgs({
      args: argv,
      options: { queries: { type: "string" }, "pglite-dir": { type: "string" }, show: { type: "boolean" } },
    }).values;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${summary}\n`);
    return 2;
  }
  let queries: ReturnType<typeof readJudgedQueries>;
  try {
    queries = readJudgedQueries(values.queries ?? defaultQueriesFile);
  } catch (error) {
    process.stderr.write(
      `search:eval: cannot read the queries: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const dir = values["pglite-dir"];
  const database = await openDatabase({ pgliteDir: dir });
  try {
    await migrate(database, defaultMigrationsDir);
    const [count] = await database.rows<{ n: number }>(sql`select count(*)::int as n from documents`);
    if (!count?.n) {
      const silent = { info() {}, warn() {}, error() {} };
      process.stderr.write(`loading the recorded documents${dir && existsSync(dir) ? ` into ${dir}` : ""}…\n`);
      const loaded = await loadSampleData({ database, log: silent, classify: (doc) => classify(doc) });
      process.stderr.write(`${loaded.created} documents from ${loaded.days.length} BOE days and EUR-Lex\n`);
    }
    const result = await evaluateSearch(database, queries);
    if (values.show) {
      for (const score of result.scores) {
        process.stdout.write(`\n${score.query.id} "${score.query.q}" P@10 ${score.precision.toFixed(2)}\n`);
        for (const id of score.ranked) process.stdout.write(`  ${score.query.relevant[id] ?? "-"} ${id}\n`);
      }
      process.stdout.write("\n");
    }
    process.stdout.write(formatReport(result));
    return 0;
  } catch (error) {
    process.stderr.write(`search:eval: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await database.close();
  }
}
