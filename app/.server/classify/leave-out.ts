/**
 * Leave-days-out evaluation (issue 38): the labelled set is cut into groups that a new day of
 * the product would bring whole — a BOE day (every document published that day), an act (its
 * document and all its articles, wherever the act's document was published) — and each group
 * is classified by a model trained, and thresholds calibrated, on the other groups only. The
 * figures then say what an unseen day gets, not what a sibling of a training document gets.
 *
 * Intervals: a cluster bootstrap over the groups (groups drawn with replacement, seeded), the
 * percentile 2.5–97.5 % of each figure; units of one group are not independent, so resampling
 * units would understate the spread.
 */
import { createHash } from "node:crypto";
import type { AreaId } from "../../lib/taxonomy.ts";
import type { SourceDocument } from "../documents/types.ts";
import { calibrateThresholds, crossValidatedEvidence, modelUnit, type TrainingUnit } from "./calibrate.ts";
import { classify } from "./classify.ts";
import { documentText } from "./document-text.ts";
import type { LabelledEntry } from "./labelled-set.ts";
import { macroF1Over, multiLabelReport } from "./metrics.ts";
import { modelFeatures, trainModel } from "./model.ts";

export interface LeaveOutUnit {
  entry: LabelledEntry;
  doc: SourceDocument;
}

export interface LeaveOutPrediction {
  entry: LabelledEntry;
  doc: SourceDocument;
  group: string;
  areas: AreaId[];
  jurisdiction: string;
  kind: string;
  relevance: string;
}

/** The act an article or an EUR-Lex act belongs to, by id (`ID#block` for articles). */
const actOf = (entry: LabelledEntry) => entry.sourceId.split("#")[0] ?? entry.sourceId;

/**
 * Each unit's group: a BOE document's publication day; an act's articles go with the act's own
 * document when it is labelled (the data protection law's articles with 6 December 2018),
 * otherwise with the act; an EU act and its articles form one group.
 */
export function groupsOf(units: readonly LeaveOutUnit[]): string[] {
  const documentGroup = new Map<string, string>();
  for (const { entry, doc } of units) {
    if (entry.unit === "article") continue;
    documentGroup.set(entry.sourceId, entry.source === "boe" ? `day ${doc.publishedOn}` : `act ${entry.sourceId}`);
  }
  const groups = units.map(({ entry }) => {
    if (entry.unit === "article") return documentGroup.get(actOf(entry)) ?? `act ${actOf(entry)}`;
    return documentGroup.get(entry.sourceId) ?? `act ${entry.sourceId}`;
  });
  // The documents that are not in a recorded summary come one or two a day: their days are
  // pooled into a few groups (whole days still, by a hash of the day), or there would be a
  // training run per document.
  const sizes = new Map<string, number>();
  for (const group of groups) sizes.set(group, (sizes.get(group) ?? 0) + 1);
  return groups.map((group) =>
    group.startsWith("day ") && (sizes.get(group) ?? 0) < SMALL_DAY
      ? `few-document days ${(Number.parseInt(createHash("sha256").update(group).digest("hex").slice(0, 8), 16) % SMALL_DAY_POOLS) + 1}`
      : group,
  );
}

/** Days with fewer units than this are pooled into SMALL_DAY_POOLS groups. */
const SMALL_DAY = 10;
const SMALL_DAY_POOLS = 3;

/** Inner folds for calibrating thresholds on a split's training groups (as classify:train does with 5). */
const CALIBRATION_FOLDS = 3;

/** Every unit classified by a model and thresholds that never saw its group. */
export function leaveGroupsOut(units: readonly LeaveOutUnit[]): LeaveOutPrediction[] {
  const groups = groupsOf(units);
  const features = units.map(({ doc }) => modelFeatures(doc, documentText(doc)));
  const out: LeaveOutPrediction[] = [];
  for (const group of [...new Set(groups)].sort()) {
    const training: TrainingUnit[] = [];
    const trainingFeatures: string[][] = [];
    units.forEach(({ entry, doc }, i) => {
      if (groups[i] === group) return;
      training.push({ sourceId: entry.sourceId, doc, areas: entry.areas });
      trainingFeatures.push(features[i] ?? []);
    });
    const model = trainModel(
      training
        .map((unit, i) => ({ unit, features: trainingFeatures[i] ?? [] }))
        .filter(({ unit }) => modelUnit(unit))
        .map(({ unit, features }) => ({ features, areas: unit.areas })),
    );
    const thresholds = calibrateThresholds(
      crossValidatedEvidence(training, CALIBRATION_FOLDS),
      training.map((unit) => unit.areas),
    );
    const withThresholds = { ...model, thresholds };
    units.forEach(({ entry, doc }, i) => {
      if (groups[i] !== group) return;
      const c = classify(doc, { model: withThresholds });
      out.push({
        entry,
        doc,
        group,
        areas: c.areas.map((a) => a.id),
        jurisdiction: c.jurisdiction,
        kind: c.kind,
        relevance: c.relevance,
      });
    });
  }
  return out;
}

/** The figures the targets are about, over some predictions. */
export interface LeaveOutFigures {
  macroF1: number;
  microF1: number;
  /** Per area: F1 and recall over the gold units with the area. */
  perArea: Map<string, { support: number; recall: number; precision: number; f1: number }>;
  jurisdiction: number;
  kind: number;
  relevance: number;
}

export function figuresOf(predictions: readonly LeaveOutPrediction[], targetAreas: readonly string[]): LeaveOutFigures {
  const report = multiLabelReport(predictions.map((p) => ({ gold: p.entry.areas, predicted: p.areas })));
  const perArea = new Map(
    [...report.perLabel].map(([id, s]) => [
      id,
      { support: s.support, recall: s.recall, precision: s.precision, f1: s.f1 },
    ]),
  );
  const macro = targetAreas.length
    ? targetAreas.reduce((sum, id) => sum + (perArea.get(id)?.f1 ?? 0), 0) / targetAreas.length
    : 0;
  const share = (pick: (p: LeaveOutPrediction) => [string | undefined, string]) => {
    const pairs = predictions.map(pick).filter(([gold]) => gold !== undefined);
    return pairs.length ? pairs.filter(([gold, got]) => gold === got).length / pairs.length : 0;
  };
  return {
    macroF1: macro,
    microF1: report.microF1,
    perArea,
    jurisdiction: share((p) => [p.entry.jurisdiction, p.jurisdiction]),
    kind: share((p) => [p.entry.kind, p.kind]),
    relevance: share((p) => [p.entry.relevance, p.relevance]),
  };
}

/** The areas the targets count: at least `minDocuments` gold units in the predictions. */
export function targetAreasOf(predictions: readonly LeaveOutPrediction[], minUnits: number): string[] {
  const report = multiLabelReport(predictions.map((p) => ({ gold: p.entry.areas, predicted: p.areas })));
  return macroF1Over(report, minUnits).labels;
}

/** A small seeded generator (mulberry32): the same set gives the same intervals. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Interval {
  low: number;
  high: number;
}

/**
 * Percentile intervals (95 %) of each figure, by drawing whole groups with replacement
 * `rounds` times. Per-area figures in a draw without that area are left out of its interval.
 */
export function clusterBootstrap(
  predictions: readonly LeaveOutPrediction[],
  targetAreas: readonly string[],
  rounds = 1000,
  seed = 38,
): {
  macroF1: Interval;
  microF1: Interval;
  jurisdiction: Interval;
  kind: Interval;
  relevance: Interval;
  recall: Map<string, Interval>;
  f1: Map<string, Interval>;
} {
  const byGroup = new Map<string, LeaveOutPrediction[]>();
  for (const p of predictions) byGroup.set(p.group, [...(byGroup.get(p.group) ?? []), p]);
  const groups = [...byGroup.values()];
  const random = seeded(seed);
  const samples = { macroF1: [] as number[], microF1: [] as number[], jurisdiction: [] as number[] };
  const kinds: number[] = [];
  const relevances: number[] = [];
  const recalls = new Map<string, number[]>();
  const f1s = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    const drawn: LeaveOutPrediction[] = [];
    for (let i = 0; i < groups.length; i++) drawn.push(...(groups[Math.floor(random() * groups.length)] ?? []));
    const f = figuresOf(
      drawn,
      targetAreas.filter((id) => drawn.some((p) => p.entry.areas.includes(id as AreaId))),
    );
    samples.macroF1.push(f.macroF1);
    samples.microF1.push(f.microF1);
    samples.jurisdiction.push(f.jurisdiction);
    kinds.push(f.kind);
    relevances.push(f.relevance);
    for (const [id, s] of f.perArea) {
      if (s.support === 0) continue;
      recalls.set(id, [...(recalls.get(id) ?? []), s.recall]);
      f1s.set(id, [...(f1s.get(id) ?? []), s.f1]);
    }
  }
  const interval = (values: number[]): Interval => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] ?? 0;
    return { low: at(0.025), high: at(0.975) };
  };
  return {
    macroF1: interval(samples.macroF1),
    microF1: interval(samples.microF1),
    jurisdiction: interval(samples.jurisdiction),
    kind: interval(kinds),
    relevance: interval(relevances),
    recall: new Map([...recalls].map(([id, v]) => [id, interval(v)])),
    f1: new Map([...f1s].map(([id, v]) => [id, interval(v)])),
  };
}
