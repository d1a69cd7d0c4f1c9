import { describe, expect, it } from "vitest";
import { englishAreasMatching, exclusions, safeSnippet } from "./search.ts";

describe("search helpers", () => {
  it('finds the -word and -"phrase" exclusions of a query, not hyphenated words', () => {
    expect(exclusions('datos -digitales "derechos humanos" -"orden ministerial" anti-blanqueo')).toEqual([
      "digitales",
      "orden ministerial",
    ]);
    expect(exclusions("-solo")).toEqual(["solo"]);
    expect(exclusions("nada que excluir")).toEqual([]);
  });

  it("maps an English query to areas by their English names and terms only", () => {
    expect(englishAreasMatching("money laundering")).toEqual(["aml"]);
    expect(englishAreasMatching("Banking")).toContain("banking");
    expect(englishAreasMatching("blanqueo de capitales")).toEqual([]);
    expect(englishAreasMatching("tax")).toEqual([]);
  });

  it("escapes snippets and keeps only its own marks", () => {
    expect(safeSnippet("a <b> \u27e6c\u27e7 & 'd'")).toBe("a &lt;b&gt; <mark>c</mark> &amp; &#39;d&#39;");
  });
});
