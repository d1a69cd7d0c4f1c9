/**
 * Per-area thresholds, calibrated on the training part only: each training unit's evidence
 * is computed with a model that did not see it (k folds; the articles of one act stay in one
 * fold, so that an act's sibling articles do not vouch for each other), then each area's
 * threshold is chosen on a grid, by coordinate ascent, to maximise the mean of macro F1
 * (over the areas the training part has) and micro F1.
 */
import { createHash } from "node:crypto";
import type { AreaId } from "../../lib/taxonomy.ts";
import type { SourceDocument } from "../documents/types.ts";
import {
  AREA_THRESHOLD,
  type AreaThresholds,
  areaEvidence,
  chooseAreas,
  type EvidenceResult,
  SECONDARY_MARGIN,
} from "./classify.ts";
import { documentText } from "./document-text.ts";
import { multiLabelReport } from "./metrics.ts";
import { type LinearModel, modelFeatures, trainModel } from "./model.ts";

export interface TrainingUnit {
  sourceId: string;
  doc: SourceDocument;
  areas: readonly AreaId[];
}

export const CALIBRATION_GRID = Array.from({ length: 14 }, (_, i) => Math.round((0.3 + i * 0.05) * 100) / 100);

/** The fold of a unit: by its act for articles (`ID#block`), else by its own id. */
export function foldOf(sourceId: string, folds: number): number {
  const group = sourceId.split("#")[0] ?? sourceId;
  return Number.parseInt(createHash("sha256").update(group).digest("hex").slice(0, 8), 16) % folds;
}

/**
 * Which units the model learns from: whole documents. Articles are left to the codes and
 * keyword layers: all the articles of an act share its labels, so a model trained on them
 * learns to recognise the act (its procedural vocabulary: "sanciones", "infracciones")
 * rather than the matter, and on the training part's cross-validation (articles of one act
 * in one fold) it then votes for the wrong area on another act's articles.
 */
export function modelUnit(unit: { sourceId: string }): boolean {
  return !unit.sourceId.includes("#");
}

/** Each unit's evidence with a model trained on the other folds. */
export function crossValidatedEvidence(
  units: readonly TrainingUnit[],
  folds = 5,
  params?: LinearModel["params"],
  trainsModel: (unit: TrainingUnit) => boolean = modelUnit,
): EvidenceResult[] {
  const features = units.map((u) => modelFeatures(u.doc, documentText(u.doc)));
  const fold = units.map((u) => foldOf(u.sourceId, folds));
  const out: EvidenceResult[] = new Array(units.length);
  for (let k = 0; k < folds; k++) {
    const examples = units
      .map((u, i) => ({ features: features[i] ?? [], areas: u.areas, fold: fold[i], unit: u }))
      .filter((e) => e.fold !== k && trainsModel(e.unit));
    const model = trainModel(examples, params);
    units.forEach((u, i) => {
      if (fold[i] === k) out[i] = areaEvidence(u.doc, { model });
    });
  }
  return out;
}

function objective(evidence: readonly EvidenceResult[], gold: readonly (readonly AreaId[])[], t: AreaThresholds) {
  const report = multiLabelReport(
    evidence.map((e, i) => ({ gold: gold[i] ?? [], predicted: chooseAreas(e, t).map((a) => a.id) })),
  );
  return (report.macroF1 + report.microF1) / 2;
}

/** A move must gain at least this much on the objective: small gains on a few training units are noise. */
export const MIN_GAIN = 0.001;
export const FIRST_GRID = CALIBRATION_GRID.filter((v) => v >= 0.4 && v <= 0.8);
export const SECOND_GRID = CALIBRATION_GRID.filter((v) => v >= 0.5);

/**
 * Thresholds per area that the training part's cross-validated evidence supports best:
 * first each area's threshold with the second place at threshold + SECONDARY_MARGIN, then
 * each area's second-place threshold on its own, never below its first-place one.
 */
export function calibrateThresholds(
  evidence: readonly EvidenceResult[],
  gold: readonly (readonly AreaId[])[],
  rounds = 3,
): Required<AreaThresholds> {
  const areas = [...new Set(gold.flat())].sort();
  const first: Partial<Record<AreaId, number>> = Object.fromEntries(areas.map((a) => [a, AREA_THRESHOLD]));
  const second: Partial<Record<AreaId, number>> = {};
  const ascend = (
    table: Partial<Record<AreaId, number>>,
    grid: readonly number[],
    floor: (area: AreaId) => number = () => 0,
  ) => {
    let best = objective(evidence, gold, { first, second });
    for (let round = 0; round < rounds; round++) {
      let moved = false;
      for (const area of areas) {
        const start = table[area];
        for (const value of grid) {
          if (value === table[area] || value < floor(area)) continue;
          const previous = table[area];
          table[area] = value;
          const score = objective(evidence, gold, { first, second });
          if (score > best + MIN_GAIN) {
            best = score;
            moved = true;
          } else if (previous === undefined) delete table[area];
          else table[area] = previous;
        }
        if (table[area] !== start) moved = true;
      }
      if (!moved) break;
    }
  };
  ascend(first, FIRST_GRID);
  for (const area of areas) second[area] = Math.round(((first[area] ?? AREA_THRESHOLD) + SECONDARY_MARGIN) * 100) / 100;
  // A second or third area never needs less evidence than a first one: without this floor the
  // search once set securities to 0.6 first and 0.5 second, and a regulation on electronic
  // identification then took securities as its second area.
  ascend(second, SECOND_GRID, (area) => first[area] ?? AREA_THRESHOLD);
  return { first, second };
}
