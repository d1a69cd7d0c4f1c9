import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLabelledSet } from "./labelled-set.ts";

describe("labelled set", () => {
  it("has at least 300 documents, split about 70/30, every area with two or more documents held out at least once", () => {
    const entries = readLabelledSet();
    expect(entries.length).toBeGreaterThanOrEqual(300);
    expect(new Set(entries.map((e) => e.sourceId)).size).toBe(entries.length);
    const heldout = entries.filter((e) => e.split === "heldout").length / entries.length;
    expect(heldout).toBeGreaterThan(0.25);
    expect(heldout).toBeLessThan(0.35);
    const byArea = new Map<string, { train: number; heldout: number }>();
    for (const e of entries) {
      expect(e.areas.length).toBeGreaterThanOrEqual(1);
      expect(e.areas.length).toBeLessThanOrEqual(3);
      for (const a of e.areas) {
        const c = byArea.get(a) ?? { train: 0, heldout: 0 };
        c[e.split]++;
        byArea.set(a, c);
      }
    }
    for (const [area, c] of byArea) if (c.train + c.heldout >= 2) expect(c.heldout, area).toBeGreaterThan(0);
  });

  it("refuses a malformed line with its line number", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "labelled-"));
    const file = path.join(dir, "set.jsonl");
    const good = {
      sourceId: "BOE-A-2026-1",
      source: "boe",
      fixture: "boe/diario_boe/xml.php/BOE-A-2026-1.xml",
      areas: ["tax"],
      jurisdiction: "ES",
      kind: "law",
      relevance: "high",
      split: "train",
    };
    writeFileSync(file, `${JSON.stringify(good)}\n${JSON.stringify({ ...good, areas: ["taxes"] })}\n`);
    expect(() => readLabelledSet(file)).toThrow("set.jsonl:2: not a valid labelled entry");
    writeFileSync(file, `${JSON.stringify(good)}\n{oops\n`);
    expect(() => readLabelledSet(file)).toThrow("set.jsonl:2: not valid JSON");
  });
});
