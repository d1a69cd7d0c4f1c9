/**
 * The search evaluation (issue 23): judged queries run through searchDocuments, scored by
 * precision@10 and nDCG@10 per query and per language.
 *
 * Judgements are graded (2: what the query is about, 1: relevant, absent: not relevant), keyed
 * by source id (BOE-A-…, a CELEX number). A document the search returns without a judgement
 * counts as not relevant. Precision@k divides by min(k, R), R the query's relevant documents, so
 * a query with four relevant documents all in the first ten scores 1.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { searchDocuments } from "./search.ts";

export const judgedQuerySchema = z
  .object({
    id: z.string().min(1),
    lang: z.enum(["es", "en"]),
    kind: z.enum(["area", "organisation", "everyday", "legal"]),
    q: z.string().min(1).max(500),
    /** source id → grade (1 relevant, 2 highly relevant). */
    relevant: z.record(z.string(), z.union([z.literal(1), z.literal(2)])),
    note: z.string().optional(),
  })
  .strict();
export type JudgedQuery = z.infer<typeof judgedQuerySchema>;

export function readJudgedQueries(file: string): JudgedQuery[] {
  const parsed = z.array(judgedQuerySchema).safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const ids = new Set<string>();
  for (const query of parsed.data) {
    if (ids.has(query.id)) throw new Error(`${file}: query id ${query.id} twice`);
    ids.add(query.id);
    if (Object.keys(query.relevant).length === 0) throw new Error(`${file}: query ${query.id} has no judged document`);
  }
  return parsed.data;
}

/** Relevant documents among the first k, over min(k, R). */
export function precisionAt(ranked: readonly string[], relevant: Record<string, number>, k = 10): number {
  const total = Object.values(relevant).filter((grade) => grade > 0).length;
  if (total === 0) return 0;
  const hits = ranked.slice(0, k).filter((id) => (relevant[id] ?? 0) > 0).length;
  return hits / Math.min(k, total);
}

/** nDCG@k with gains 2^grade − 1 and log2 discounts. */
export function ndcgAt(ranked: readonly string[], relevant: Record<string, number>, k = 10): number {
  const gain = (grade: number) => 2 ** grade - 1;
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + gain(relevant[id] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(relevant)
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

export interface QueryScore {
  query: JudgedQuery;
  ranked: string[];
  precision: number;
  ndcg: number;
}

export interface EvalSummary {
  queries: number;
  precision: number;
  ndcg: number;
}

export async function evaluateSearch(
  database: Database,
  queries: readonly JudgedQuery[],
  k = 10,
): Promise<{ scores: QueryScore[]; byLanguage: Record<"es" | "en" | "all", EvalSummary> }> {
  const scores: QueryScore[] = [];
  for (const query of queries) {
    const result = await searchDocuments(database, { q: query.q, limit: k, facets: false });
    const ranked = result.items.map((item) => item.sourceId);
    scores.push({
      query,
      ranked,
      precision: precisionAt(ranked, query.relevant, k),
      ndcg: ndcgAt(ranked, query.relevant, k),
    });
  }
  const summary = (list: QueryScore[]): EvalSummary => ({
    queries: list.length,
    precision: list.length ? list.reduce((n, s) => n + s.precision, 0) / list.length : 0,
    ndcg: list.length ? list.reduce((n, s) => n + s.ndcg, 0) / list.length : 0,
  });
  return {
    scores,
    byLanguage: {
      es: summary(scores.filter((s) => s.query.lang === "es")),
      en: summary(scores.filter((s) => s.query.lang === "en")),
      all: summary(scores),
    },
  };
}

/** The report the command prints: one line per query, then per language. */
export function formatReport(result: Awaited<ReturnType<typeof evaluateSearch>>, k = 10): string {
  const lines = [`query                                     lang kind          P@${k}   nDCG@${k}  judged`];
  for (const score of result.scores) {
    lines.push(
      `${score.query.q.slice(0, 40).padEnd(42)}${score.query.lang.padEnd(5)}${score.query.kind.padEnd(14)}${score.precision
        .toFixed(2)
        .padEnd(7)}${score.ndcg.toFixed(2).padEnd(9)}${Object.keys(score.query.relevant).length}`,
    );
  }
  lines.push("");
  for (const lang of ["es", "en", "all"] as const) {
    const s = result.byLanguage[lang];
    lines.push(
      `${lang.padEnd(4)} ${String(s.queries).padStart(3)} queries  precision@${k} ${s.precision.toFixed(3)}  nDCG@${k} ${s.ndcg.toFixed(3)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
