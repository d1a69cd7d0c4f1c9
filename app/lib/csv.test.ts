import { describe, expect, it } from "vitest";
import { csvCell } from "./csv.ts";

describe("csvCell", () => {
  it("neutralises spreadsheet formulas and quotes what needs quoting", () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    for (const start of ["+", "-", "@", "\t", "\r"]) expect(csvCell(`${start}1`).replace(/^"/, "")).toMatch(/^'/);
    expect(csvCell("Núñez, Ana")).toBe('"Núñez, Ana"');
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell(null)).toBe("");
  });
});
