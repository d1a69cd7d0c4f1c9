/**
 * Layer 3: a linear model (logistic regression, one-vs-rest per area) over stemmed tokens
 * of the title, epigraph, department and opening text, plus the section and department
 * codes. Trained offline by `npm run platform -- classify:train` from the training part
 * of the labelled set, deterministic (seeded), and bundled as model.json.
 */
import type { AreaId } from "../../lib/taxonomy.ts";
import type { SourceDocument } from "../documents/types.ts";
import type { DocumentText } from "./document-text.ts";
import { stems } from "./text.ts";

export interface AreaWeights {
  bias: number;
  /** Feature index → weight (only non-zero weights are kept). */
  weights: Record<string, number>;
}

export interface LinearModel {
  kind: "logistic-ovr";
  /** Training parameters, for the record. */
  params: { epochs: number; learningRate: number; l2: number; seed: number; minCount: number };
  trainedOn: number;
  features: string[];
  areas: Partial<Record<AreaId, AreaWeights>>;
  /**
   * Per-area thresholds on the combined score, calibrated on the training part with
   * cross-validated model scores (`calibrateThresholds`); absent areas use the default.
   */
  thresholds?: {
    first?: Partial<Record<AreaId, number>>;
    second?: Partial<Record<AreaId, number>>;
  };
}

/** The model's feature names for a document: a set, each counted once. */
export function modelFeatures(doc: SourceDocument, text: DocumentText): string[] {
  const features = new Set<string>();
  for (const stem of stems(`${text.title} ${text.epigraph}`, text.language)) {
    if (stem.length > 1 && !/^\d+$/.test(stem)) features.add(`t:${stem}`);
  }
  for (const stem of stems(text.opening.slice(0, 600), text.language)) {
    if (stem.length > 1 && !/^\d+$/.test(stem)) features.add(`b:${stem}`);
  }
  for (const stem of stems(text.department, text.language)) features.add(`d:${stem}`);
  features.add(`src:${doc.source}`);
  if (text.section) features.add(`sec:${text.section}`);
  if (doc.department?.code) features.add(`dep:${doc.department.code}`);
  return [...features];
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Compiled for prediction: feature name → index. */
export class CompiledModel {
  private readonly index: Map<string, number>;
  readonly model: LinearModel;
  constructor(model: LinearModel) {
    this.model = model;
    this.index = new Map(model.features.map((feature, i) => [feature, i]));
  }

  /** Probability per area the model knows. */
  predict(features: readonly string[]): { area: AreaId; probability: number }[] {
    const indices: string[] = [];
    for (const feature of features) {
      const i = this.index.get(feature);
      if (i !== undefined) indices.push(String(i));
    }
    const out: { area: AreaId; probability: number }[] = [];
    for (const [area, weights] of Object.entries(this.model.areas) as [AreaId, AreaWeights][]) {
      let z = weights.bias;
      for (const i of indices) z += weights.weights[i] ?? 0;
      out.push({ area, probability: sigmoid(z) });
    }
    return out.sort((a, b) => b.probability - a.probability);
  }
}

/** A small seeded generator (mulberry32) so that training is reproducible. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TrainingExample {
  features: string[];
  areas: readonly AreaId[];
}

export function trainModel(
  examples: readonly TrainingExample[],
  params: LinearModel["params"] = { epochs: 40, learningRate: 0.2, l2: 0.0005, seed: 20261123, minCount: 2 },
): LinearModel {
  const counts = new Map<string, number>();
  for (const example of examples) for (const f of example.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const features = [...counts.entries()]
    .filter(([, n]) => n >= params.minCount)
    .map(([f]) => f)
    .sort();
  const index = new Map(features.map((f, i) => [f, i]));
  const rows = examples.map((example) => ({
    x: example.features.map((f) => index.get(f)).filter((i): i is number => i !== undefined),
    areas: new Set(example.areas),
  }));
  const labelled = [...new Set(examples.flatMap((e) => e.areas))].sort();

  const areas: LinearModel["areas"] = {};
  for (const area of labelled) {
    const next = random(params.seed);
    const w = new Float64Array(features.length);
    let bias = 0;
    const order = rows.map((_, i) => i);
    for (let epoch = 0; epoch < params.epochs; epoch++) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [order[i], order[j]] = [order[j] as number, order[i] as number];
      }
      const rate = params.learningRate / (1 + epoch * 0.1);
      for (const r of order) {
        const row = rows[r];
        if (!row) continue;
        let z = bias;
        for (const i of row.x) z += w[i] ?? 0;
        const gradient = sigmoid(z) - (row.areas.has(area) ? 1 : 0);
        bias -= rate * gradient;
        for (const i of row.x) w[i] = (w[i] ?? 0) * (1 - rate * params.l2) - rate * gradient;
      }
    }
    const weights: Record<string, number> = {};
    w.forEach((value, i) => {
      const rounded = Math.round(value * 1000) / 1000;
      if (rounded !== 0) weights[String(i)] = rounded;
    });
    areas[area] = { bias: Math.round(bias * 1000) / 1000, weights };
  }
  return { kind: "logistic-ovr", params, trainedOn: examples.length, features, areas };
}
