/** Evidence per area collected by the layers, combined by noisy-or. */
import type { AreaId } from "../../lib/taxonomy.ts";
import type { Reason } from "./reasons.ts";

export type Layer = "codes" | "keywords" | "model";

export class AreaEvidence {
  readonly byArea = new Map<AreaId, { scores: number[]; reasons: Reason[]; layers: Set<Layer> }>();

  add(area: AreaId, score: number, reason: Reason, layer: Layer): void {
    let entry = this.byArea.get(area);
    if (!entry) {
      entry = { scores: [], reasons: [], layers: new Set() };
      this.byArea.set(area, entry);
    }
    entry.scores.push(score);
    if (!entry.reasons.some((r) => r.es === reason.es)) entry.reasons.push(reason);
    entry.layers.add(layer);
  }

  score(area: AreaId): number {
    const entry = this.byArea.get(area);
    if (!entry) return 0;
    return 1 - entry.scores.reduce((rest, s) => rest * (1 - s), 1);
  }

  has(area: AreaId): boolean {
    return this.byArea.has(area);
  }

  ranked(): { area: AreaId; score: number; reasons: Reason[]; layers: Set<Layer> }[] {
    return [...this.byArea.entries()]
      .map(([area, entry]) => ({ area, score: this.score(area), reasons: entry.reasons, layers: entry.layers }))
      .sort((a, b) => b.score - a.score || a.area.localeCompare(b.area));
  }
}
