import { describe, expect, it } from "vitest";
import { parseArticleRefs, resolveRefs } from "./articles.ts";

const names = (text: string) => parseArticleRefs(text).map((r) => `${r.kind}:${r.name}`);

describe("parts named in a relation text", () => {
  it("reads articles, ranges, sections and provisions", () => {
    expect(names("el art. 23")).toEqual(["article:23"]);
    expect(names("los arts. 2 a 5")).toEqual(["article:2", "article:3", "article:4", "article:5"]);
    expect(names("el art. 28.2 y 3, por Ley Orgánica 3/2018")).toEqual(["article:28"]);
    expect(names("los arts. 9, 10 y SE AÑADE la disposición adicional 6")).toEqual([
      "article:9",
      "article:10",
      "provision:adicional sexta",
    ]);
    expect(names("la disposición adicional tercera")).toEqual(["provision:adicional tercera"]);
    expect(names("el artículo 85 bis")).toEqual(["article:85 bis"]);
    expect(names("el anexo II")).toEqual(["annex:ii"]);
    expect(names("determinados preceptos")).toEqual([]);
  });

  it("resolves them to the law's blocks by title", () => {
    const blocks = [
      { blockId: "a23", title: "Artículo 23" },
      { blockId: "a28", title: "Artículo 28" },
      { blockId: "a85bis", title: "Artículo 85 bis" },
      { blockId: "datercera", title: "Disposición adicional tercera" },
    ];
    expect(
      resolveRefs(parseArticleRefs("arts. 23, 28.2 y 3, 85 bis y la disposición adicional tercera"), blocks),
    ).toEqual(["a23", "a28", "a85bis", "datercera"]);
  });
});
