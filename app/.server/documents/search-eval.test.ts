import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ndcgAt, precisionAt, readJudgedQueries } from "./search-eval.ts";

describe("search evaluation metrics", () => {
  it("precision@k counts judged documents among the first k over min(k, relevant)", () => {
    const relevant = { a: 2, b: 1, c: 1 };
    expect(precisionAt(["a", "x", "b", "y"], relevant, 10)).toBeCloseTo(2 / 3);
    expect(precisionAt(["x", "y", "a", "b"], relevant, 2)).toBe(0);
    expect(precisionAt(["a", "b", "c"], relevant, 2)).toBe(1);
    expect(precisionAt(["a"], {}, 10)).toBe(0);
  });

  it("nDCG@k is 1 for the ideal order and less when the best document comes later", () => {
    const relevant = { a: 2, b: 1 };
    expect(ndcgAt(["a", "b"], relevant)).toBeCloseTo(1);
    // DCG = 1/log2(2) + 3/log2(3); ideal = 3 + 1/log2(3).
    expect(ndcgAt(["b", "a"], relevant)).toBeCloseTo((1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)));
    expect(ndcgAt(["x", "y"], relevant)).toBe(0);
  });

  it("refuses a query file with a repeated id or a query without judgements", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "search-eval-"));
    const file = path.join(dir, "q.json");
    const query = { id: "a", lang: "es", kind: "area", q: "x", relevant: { "BOE-A-1": 2 } };
    writeFileSync(file, JSON.stringify([query, query]));
    expect(() => readJudgedQueries(file)).toThrow(/twice/);
    writeFileSync(file, JSON.stringify([{ ...query, relevant: {} }]));
    expect(() => readJudgedQueries(file)).toThrow(/no judged/);
    writeFileSync(file, JSON.stringify([{ ...query, lang: "fr" }]));
    expect(() => readJudgedQueries(file)).toThrow();
  });
});
