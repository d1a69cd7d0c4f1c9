import { afterEach, describe, expect, it, vi } from "vitest";
import { run } from "./classify-eval.ts";

/** Runs `classify:eval` in this process and returns what it printed. */
async function evaluate(argv: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const code = await run(argv);
  vi.restoreAllMocks();
  return { code, out };
}

const figure = (out: string, pattern: RegExp) => {
  const match = pattern.exec(out);
  if (!match?.[1]) throw new Error(`not printed: ${pattern}\n${out}`);
  return Number(match[1]);
};

describe("classify:eval on the held-out part", () => {
  afterEach(() => vi.restoreAllMocks());

  it("prints each area's support with 95 % intervals and every target figure of issue 23", async () => {
    const { code, out } = await evaluate(["--split", "heldout"]);
    expect(code).toBe(0);
    // Support, precision and recall with their Wilson intervals, per area.
    expect(out).toMatch(/^data-protection\s+\d+\s+[\d.]+ \[[\d.]+–[\d.]+\]\s+[\d.]+ \[[\d.]+–[\d.]+\]\s+[\d.]+$/m);
    expect(figure(out, /areas macro F1 over the \d+ areas with ≥ 5 gold units: ([\d.]+)/)).toBeGreaterThanOrEqual(0.85);
    expect(figure(out, /jurisdiction accuracy: ([\d.]+)/)).toBeGreaterThanOrEqual(0.98);
    expect(figure(out, /kind accuracy: ([\d.]+)/)).toBeGreaterThanOrEqual(0.98);
    expect(figure(out, /relevance accuracy: ([\d.]+)/)).toBeGreaterThanOrEqual(0.95);
    // The target as the issue words it (areas with at least five held-out documents).
    expect(out).toMatch(
      /whole documents only \(\d+\): .*macro F1 \(≥ 5\) 0\.(8[5-9]|9\d)\d* over .*; recall < 0\.7: none/,
    );
    // Every area under 0.7 says where its gold units come from (an act's articles share its labels).
    const low = /areas with recall < 0\.7 \(any support\): (.*)$/m.exec(out)?.[1] ?? "";
    for (const area of low === "none" ? [] : low.split(", ")) {
      expect(out).toMatch(new RegExp(`^  ${area}: gold units found, by origin: `, "m"));
    }
  });

  it("refuses an unknown part with its usage line", async () => {
    let err = "";
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
    expect(await run(["--split", "everything"])).toBe(1);
    expect(err).toMatch(/usage: npm run platform -- classify:eval/);
  });
});
