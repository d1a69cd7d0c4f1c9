import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { labelledSetPath, projectRoot, readLabelledSet } from "./labelled-set.ts";

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

  it("lives in a tracked folder outside the git-ignored data/", () => {
    expect(path.relative(projectRoot, labelledSetPath)).toBe(path.join("fixtures", "classify", "labelled.jsonl"));
  });

  it("keeps every act's articles on one side of the split, with areas only", () => {
    const articles = readLabelledSet().filter((e) => e.unit === "article");
    expect(articles.length).toBeGreaterThan(500);
    const sides = new Map<string, Set<string>>();
    for (const e of articles) {
      const act = e.sourceId.split("#")[0] ?? "";
      sides.set(act, (sides.get(act) ?? new Set()).add(e.split));
      expect(e.jurisdiction ?? e.kind ?? e.relevance, e.sourceId).toBeUndefined();
    }
    for (const [act, split] of sides) expect(split.size, act).toBe(1);
    // The whole act and its articles are on the same side too.
    const whole = new Map(readLabelledSet().map((e) => [e.sourceId, e.split]));
    for (const [act, split] of sides) if (whole.has(act)) expect(split.has(whole.get(act) ?? ""), act).toBe(true);
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
    writeFileSync(file, `${JSON.stringify(good)}\n${JSON.stringify({ ...good, unit: "article" })}\n`);
    expect(() => readLabelledSet(file)).toThrow("set.jsonl:2: not a valid labelled entry");
    writeFileSync(file, `${JSON.stringify(good)}\n{oops\n`);
    expect(() => readLabelledSet(file)).toThrow("set.jsonl:2: not valid JSON");
  });
});
