import { describe, expect, it } from "vitest";
import type { SourceDocument } from "../documents/types.ts";
import { readLabelledSet } from "./labelled-set.ts";
import { clusterBootstrap, groupsOf, type LeaveOutPrediction, type LeaveOutUnit } from "./leave-out.ts";

const doc = (publishedOn: string) => ({ publishedOn }) as SourceDocument;
const unit = (sourceId: string, publishedOn: string, extra: Partial<LeaveOutUnit["entry"]> = {}): LeaveOutUnit => ({
  entry: { sourceId, source: "boe", fixture: "", areas: ["tax"], split: "train", ...extra },
  doc: doc(publishedOn),
});

describe("leave-days-out groups", () => {
  it("keeps a day whole, puts an act's articles with its document's day, and pools days of few documents", () => {
    const day = Array.from({ length: 10 }, (_, i) => unit(`BOE-A-2026-${i}`, "2026-04-07"));
    const units = [
      ...day,
      unit("BOE-A-2018-16673", "2018-12-06"),
      ...Array.from({ length: 9 }, (_, i) => unit(`BOE-A-2018-16673#a${i}`, "2018-12-06", { unit: "article" })),
      unit("32016R0679", "2016-05-04", { source: "eurlex" }),
      unit("32016R0679#art1", "2016-05-04", { source: "eurlex", unit: "article" }),
      unit("BOE-A-2002-13758#a1", "2002-07-12", { unit: "article" }),
      unit("BOE-A-2009-1", "2009-01-03"),
    ];
    const groups = groupsOf(units);
    expect(new Set(groups.slice(0, 10))).toEqual(new Set(["day 2026-04-07"]));
    // The data protection law and its nine articles: ten units of one day.
    expect(new Set(groups.slice(10, 20))).toEqual(new Set(["day 2018-12-06"]));
    expect(groups.slice(20, 22)).toEqual(["act 32016R0679", "act 32016R0679"]);
    expect(groups[22]).toBe("act BOE-A-2002-13758");
    expect(groups[23]).toMatch(/^few-document days [1-3]$/);
  });

  it("every labelled unit has a group, and no act's articles are split from their act", () => {
    const entries = readLabelledSet();
    const units = entries.map((entry) => ({
      entry,
      doc: doc(entry.day ? `${entry.day.slice(0, 4)}-${entry.day.slice(4, 6)}-${entry.day.slice(6)}` : "2000-01-01"),
    }));
    const groups = groupsOf(units);
    const byAct = new Map<string, Set<string>>();
    entries.forEach((entry, i) => {
      const act = entry.sourceId.split("#")[0] ?? "";
      byAct.set(act, (byAct.get(act) ?? new Set()).add(groups[i] ?? ""));
    });
    for (const [act, set] of byAct) expect([act, set.size]).toEqual([act, 1]);
  });

  it("draws whole groups: the intervals are seeded, and a figure the same in every group has no spread", () => {
    const predictions: LeaveOutPrediction[] = ["a", "b", "c"].flatMap(
      (group) =>
        [0, 1].map((i) => ({
          entry: {
            sourceId: `${group}${i}`,
            source: "boe",
            fixture: "",
            areas: ["tax"],
            split: "train",
            jurisdiction: "ES",
          },
          doc: doc("2026-01-01"),
          group,
          areas: i === 0 ? ["tax"] : ["energy"],
          jurisdiction: "ES",
          kind: "resolution",
          relevance: "low",
        })) as LeaveOutPrediction[],
    );
    const first = clusterBootstrap(predictions, ["tax"], 200, 1);
    expect(clusterBootstrap(predictions, ["tax"], 200, 1)).toEqual(first);
    expect(first.jurisdiction).toEqual({ low: 1, high: 1 });
    expect(first.recall.get("tax")).toEqual({ low: 0.5, high: 0.5 });
  });
});
