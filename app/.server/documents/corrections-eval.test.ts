import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyReviewedCorrections, readReviewedCorrections } from "./corrections-eval.ts";

describe("reviewed corrections as labelled data", () => {
  it("moves the gold areas of the entries they name and counts the others", () => {
    const entries = [
      { sourceId: "BOE-A-1", areas: ["banking" as const] },
      { sourceId: "BOE-A-2", areas: ["tax" as const] },
    ];
    const result = applyReviewedCorrections(entries, [
      { sourceId: "BOE-A-1", area: "insurance", action: "add" },
      { sourceId: "BOE-A-1", area: "banking", action: "remove" },
      { sourceId: "BOE-A-9", area: "tax", action: "add" },
    ]);
    expect(result.entries.map((e) => e.areas)).toEqual([["insurance"], ["tax"]]);
    expect(result).toMatchObject({ applied: 2, outside: 1 });
  });

  it("reads the exported JSON and refuses an unknown area", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "corrections-")), "c.json");
    writeFileSync(file, JSON.stringify([{ sourceId: "BOE-A-1", area: "tax", action: "add", reason: "r", title: "t" }]));
    expect(readReviewedCorrections(file)).toHaveLength(1);
    writeFileSync(file, JSON.stringify([{ sourceId: "BOE-A-1", area: "nope", action: "add" }]));
    expect(() => readReviewedCorrections(file)).toThrow(/area/);
  });
});
