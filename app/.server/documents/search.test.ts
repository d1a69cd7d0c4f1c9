import { describe, expect, it } from "vitest";
import { exclusions, safeSnippet } from "./search.ts";
import { expandQuery, prefixes } from "./search-expand.ts";

describe("search helpers", () => {
  it('finds the -word and -"phrase" exclusions of a query, not hyphenated words', () => {
    expect(exclusions('datos -digitales "derechos humanos" -"orden ministerial" anti-blanqueo')).toEqual([
      "digitales",
      "orden ministerial",
    ]);
    expect(exclusions("-solo")).toEqual(["solo"]);
    expect(exclusions("nada que excluir")).toEqual([]);
  });

  it("maps a query to the areas it names, in either language, plurals and accents aside", () => {
    expect(expandQuery("money laundering").areas).toEqual(["aml"]);
    expect(expandQuery("Banking").areas).toContain("banking");
    expect(expandQuery("blanqueo de capitales").areas).toEqual(["aml"]);
    expect(expandQuery("proteccion de datos").areas).toEqual(["data-protection"]);
    expect(expandQuery("tax").areas).toEqual(["tax"]);
    // One everyday word inside a longer query names nothing.
    expect(expandQuery("datos del padrón").areas).toEqual([]);
  });

  it("translates a query through EuroVoc and the glossary, both ways", () => {
    expect(expandQuery("data protection").phrases.es).toContain("protección de datos");
    expect(expandQuery("protección de datos").phrases.en).toContain("data protection");
    expect(expandQuery("judgment").phrases.es).toContain("sentencia");
    // EuroVoc: "credit institution" / "entidad de crédito".
    expect(expandQuery("credit institutions").phrases.es).toContain("entidad de crédito");
    // Exclusions, OR and prefixes keep the query as typed.
    expect(expandQuery("data protection -gdpr")).toEqual({ areas: [], phrases: { es: [], en: [] } });
    expect(expandQuery('"data protection"').areas).toEqual([]);
  });

  it("takes word* prefixes out of the query", () => {
    expect(prefixes("ciberseg* nacional")).toEqual({ prefixes: ["ciberseg"], rest: "nacional" });
    expect(prefixes('"datos" banc*')).toEqual({ prefixes: ["banc"], rest: '"datos"' });
    expect(prefixes("a* b")).toEqual({ prefixes: [], rest: "a* b" });
  });

  it("escapes snippets and keeps only its own marks", () => {
    expect(safeSnippet("a <b> \u27e6c\u27e7 & 'd'")).toBe("a &lt;b&gt; <mark>c</mark> &amp; &#39;d&#39;");
  });
});
