import { describe, expect, it } from "vitest";
import type { AreaId } from "../../lib/taxonomy.ts";
import { calibrateThresholds } from "./calibrate.ts";
import type { EvidenceResult } from "./classify.ts";
import { reason } from "./reasons.ts";

const unit = (...scores: [AreaId, number][]): EvidenceResult => ({
  section: "1",
  ranked: scores.map(([area, score]) => ({
    area,
    score,
    reasons: [reason("fallback", {})],
    layers: new Set(["keywords" as const]),
  })),
});

describe("per-area thresholds calibrated on the training part", () => {
  it("never lets a second area need less evidence than a first one", () => {
    const evidence: EvidenceResult[] = [];
    const gold: AreaId[][] = [];
    // As first area, securities at 0.62 is right and at 0.58 wrong: its first-place threshold lands
    // between them.
    for (let i = 0; i < 6; i++) {
      evidence.push(unit(["securities", 0.62]));
      gold.push(["securities"]);
      evidence.push(unit(["securities", 0.58], ["tax", 0.3]));
      gold.push(["tax"]);
    }
    // As second area, 0.52 would be right: the objective alone would take a second-place threshold
    // of 0.5, under the first-place one.
    for (let i = 0; i < 6; i++) {
      evidence.push(unit(["digital", 0.9], ["securities", 0.52]));
      gold.push(["digital", "securities"]);
    }
    const { first, second } = calibrateThresholds(evidence, gold);
    expect(first.securities).toBe(0.6);
    expect(second.securities).toBeGreaterThanOrEqual(first.securities ?? 0);
    // Every area of the training part gets its second-place threshold.
    expect(Object.keys(second).sort()).toEqual(["digital", "securities", "tax"]);
  });
});
