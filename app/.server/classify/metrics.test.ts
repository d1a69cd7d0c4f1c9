import { describe, expect, it } from "vitest";
import { accuracy, multiLabelReport, quantile } from "./metrics.ts";

describe("evaluation arithmetic", () => {
  it("computes per-label precision, recall, F1 and macro/micro F1 on a hand-worked example", () => {
    // a: tp 2 (docs 1, 2), fp 1 (doc 3), fn 0 → P 2/3, R 1, F1 0.8
    // b: tp 1 (doc 2), fp 0, fn 1 (doc 4) → P 1, R 1/2, F1 2/3
    // c: tp 0, fp 1 (doc 4), fn 0 → no gold support: not in macro
    const report = multiLabelReport([
      { gold: ["a"], predicted: ["a"] },
      { gold: ["a", "b"], predicted: ["a", "b"] },
      { gold: [], predicted: ["a"] },
      { gold: ["b"], predicted: ["c"] },
    ]);
    const a = report.perLabel.get("a");
    const b = report.perLabel.get("b");
    expect(a).toMatchObject({ tp: 2, fp: 1, fn: 0, support: 2 });
    expect(a?.precision).toBeCloseTo(2 / 3);
    expect(a?.recall).toBe(1);
    expect(a?.f1).toBeCloseTo(0.8);
    expect(b?.precision).toBe(1);
    expect(b?.recall).toBe(0.5);
    expect(b?.f1).toBeCloseTo(2 / 3);
    expect(report.perLabel.get("c")).toMatchObject({ tp: 0, fp: 1, support: 0, f1: 0 });
    expect(report.macroF1).toBeCloseTo((0.8 + 2 / 3) / 2);
    // pooled: tp 3, fp 2, fn 1 → P 3/5, R 3/4, F1 = 2·0.6·0.75/1.35 = 2/3
    expect(report.microF1).toBeCloseTo(2 / 3);
  });

  it("computes accuracy and nearest-rank quantiles", () => {
    expect(
      accuracy([
        { gold: "ES", predicted: "ES" },
        { gold: "EU", predicted: "ES" },
        { gold: "ES-CT", predicted: "ES-CT" },
        { gold: "ES", predicted: "ES" },
      ]),
    ).toBe(0.75);
    expect(accuracy([])).toBe(0);
    expect(quantile([5, 1, 4, 2, 3], 0.95)).toBe(5);
    expect(quantile([5, 1, 4, 2, 3], 0.5)).toBe(3);
  });
});

describe("Wilson interval", () => {
  it("matches hand-worked 95 % intervals and stays inside [0, 1]", async () => {
    const { wilson } = await import("./metrics.ts");
    const [lo, hi] = wilson(8, 10);
    expect(lo).toBeCloseTo(0.4902, 3);
    expect(hi).toBeCloseTo(0.9433, 3);
    expect(wilson(0, 1)[0]).toBe(0);
    expect(wilson(0, 1)[1]).toBeCloseTo(0.7935, 3);
    expect(wilson(5, 5)[1]).toBe(1);
    expect(wilson(0, 0)).toEqual([0, 1]);
  });
});
