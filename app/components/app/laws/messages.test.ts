import { describe, expect, it } from "vitest";
import { blockTitle } from "./messages.ts";

describe("a block's title in words (issue 40)", () => {
  it("names the BOE's kinds, bracketed or not, in the reader's language; keeps real titles", () => {
    expect(blockTitle("[preambulo]", "es")).toBe("Preámbulo");
    expect(blockTitle("preambulo", "en")).toBe("Preamble");
    expect(blockTitle("[firma]", "en")).toBe("Signature");
    expect(blockTitle("", "es")).toBe("Parte sin título");
    expect(blockTitle("Artículo 9", "es")).toBe("Artículo 9");
    expect(blockTitle("[otra_cosa]", "es")).toBe("[otra_cosa]");
  });
});
