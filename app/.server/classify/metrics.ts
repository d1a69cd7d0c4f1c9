/** The evaluation's arithmetic: precision, recall and F1 per label, macro and micro F1, accuracy. */

export interface LabelCounts {
  tp: number;
  fp: number;
  fn: number;
}

export interface LabelScores extends LabelCounts {
  /** Documents that carry the label in the gold set (tp + fn). */
  support: number;
  precision: number;
  recall: number;
  f1: number;
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

export function scoresOf(counts: LabelCounts): LabelScores {
  const precision = ratio(counts.tp, counts.tp + counts.fp);
  const recall = ratio(counts.tp, counts.tp + counts.fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { ...counts, support: counts.tp + counts.fn, precision, recall, f1 };
}

export interface MultiLabelReport {
  perLabel: Map<string, LabelScores>;
  /** Mean F1 over the labels present in the gold set. */
  macroF1: number;
  /** F1 of the pooled counts over all labels. */
  microF1: number;
}

/** Multi-label scores over pairs of (gold labels, predicted labels). */
export function multiLabelReport(
  pairs: readonly { gold: readonly string[]; predicted: readonly string[] }[],
): MultiLabelReport {
  const counts = new Map<string, LabelCounts>();
  const get = (label: string) => {
    let c = counts.get(label);
    if (!c) {
      c = { tp: 0, fp: 0, fn: 0 };
      counts.set(label, c);
    }
    return c;
  };
  for (const { gold, predicted } of pairs) {
    const g = new Set(gold);
    const p = new Set(predicted);
    for (const label of p) {
      if (g.has(label)) get(label).tp++;
      else get(label).fp++;
    }
    for (const label of g) if (!p.has(label)) get(label).fn++;
  }
  const perLabel = new Map(
    [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([label, c]) => [label, scoresOf(c)]),
  );
  const present = [...perLabel.values()].filter((s) => s.support > 0);
  const macroF1 = present.length === 0 ? 0 : present.reduce((sum, s) => sum + s.f1, 0) / present.length;
  const pooled = [...counts.values()].reduce(
    (sum, c) => ({ tp: sum.tp + c.tp, fp: sum.fp + c.fp, fn: sum.fn + c.fn }),
    { tp: 0, fp: 0, fn: 0 },
  );
  return { perLabel, macroF1, microF1: scoresOf(pooled).f1 };
}

export function accuracy(pairs: readonly { gold: string; predicted: string }[]): number {
  return ratio(pairs.filter((p) => p.gold === p.predicted).length, pairs.length);
}

/** The q-quantile (0..1) of the values, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

/** The Wilson score interval (95 % by default) of a proportion `successes / n`; [0, 1] when n is 0. */
export function wilson(successes: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Macro F1 over the labels with at least `minSupport` gold documents. */
export function macroF1Over(report: MultiLabelReport, minSupport: number): { macroF1: number; labels: string[] } {
  const kept = [...report.perLabel.entries()].filter(([, s]) => s.support >= minSupport);
  const macroF1 = kept.length === 0 ? 0 : kept.reduce((sum, [, s]) => sum + s.f1, 0) / kept.length;
  return { macroF1, labels: kept.map(([label]) => label) };
}
