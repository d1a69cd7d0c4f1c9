import { describe, expect, it } from "vitest";
import { type PartInput, partOf, splitIntoParts } from "./parts.ts";

const h = (size = 10): PartInput => ({ heading: true, size });
const a = (size: number): PartInput => ({ heading: false, size });

describe("splitIntoParts", () => {
  it("keeps a short law whole", () => {
    expect(splitIntoParts([h(), a(100), a(100)], 1000)).toEqual([{ start: 0, end: 3 }]);
    expect(splitIntoParts([], 1000)).toEqual([]);
  });

  it("cuts before a heading once a part holds the budget, never after a heading", () => {
    // title, chapter, 5 articles of 250; title, chapter, 5 articles of 250
    const blocks = [
      h(),
      h(),
      ...Array.from({ length: 5 }, () => a(250)),
      h(),
      h(),
      ...Array.from({ length: 5 }, () => a(250)),
    ];
    const parts = splitIntoParts(blocks, 1000);
    expect(parts).toEqual([
      { start: 0, end: 7 },
      { start: 7, end: 14 },
    ]);
    // The second title and its chapter stay together, at the head of the second part.
    expect(blocks[parts[1]!.start]?.heading).toBe(true);
  });

  it("cuts a law without headings at half as much again as the budget", () => {
    const parts = splitIntoParts(
      Array.from({ length: 10 }, () => a(500)),
      1000,
    );
    expect(parts).toEqual([
      { start: 0, end: 3 },
      { start: 3, end: 6 },
      { start: 6, end: 9 },
      { start: 9, end: 10 },
    ]);
  });

  it("joins a short last part to the one before", () => {
    const parts = splitIntoParts([h(), a(1200), h(), a(100)], 1000);
    expect(parts).toEqual([{ start: 0, end: 4 }]);
  });

  it("covers every block once, in order", () => {
    const blocks = Array.from({ length: 500 }, (_, i) => (i % 7 === 0 ? h() : a((i * 37) % 900)));
    const parts = splitIntoParts(blocks, 5000);
    expect(parts[0]?.start).toBe(0);
    expect(parts.at(-1)?.end).toBe(500);
    for (let i = 1; i < parts.length; i++) expect(parts[i]!.start).toBe(parts[i - 1]!.end);
    expect(partOf(parts, 0)).toBe(0);
    expect(partOf(parts, 499)).toBe(parts.length - 1);
    expect(partOf(parts, 9999)).toBe(0);
  });
});
