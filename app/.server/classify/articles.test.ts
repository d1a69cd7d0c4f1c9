import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { consolidatedArticles, consolidatedMetadata, lawArticles } from "./articles.ts";
import { fixturesRoot } from "./labelled-set.ts";

const consolidated = (id: string) => path.join("boe/datosabiertos/api/legislacion-consolidada/id", `${id}.xml`);

describe("articles of the recorded laws as documents", () => {
  it("takes an article's latest wording by date, not the last one listed, without the amendment notes", () => {
    // BOE-A-1985-5392 a2 lists 1985, then 2013, then 1990: the 2013 wording is the one in force.
    const xml = readFileSync(path.join(fixturesRoot, consolidated("BOE-A-1985-5392")), "utf8");
    const a2 = consolidatedArticles(xml, "BOE-A-1985-5392").find((u) => u.sourceId === "BOE-A-1985-5392#a2");
    const text = a2?.paragraphs.map((p) => p.text).join("\n") ?? "";
    expect(text).toContain("estabilidad presupuestaria y sostenibilidad financiera");
    expect(text).not.toContain("Se modifica el apartado 1");
  });

  it("gives an article its heading as title, the law's department and rank, and the law's title to open its text", () => {
    const articles = lawArticles("BOE-A-2018-16673", consolidated("BOE-A-2018-16673"), fixturesRoot);
    const a22 = articles.get("BOE-A-2018-16673#a2-4");
    expect(a22?.title).toBe("Artículo 22. Tratamientos con fines de videovigilancia.");
    expect(a22?.language).toBe("es");
    expect(a22?.rank?.label).toBe("Ley Orgánica");
    const meta = consolidatedMetadata(readFileSync(path.join(fixturesRoot, consolidated("BOE-A-2018-16673")), "utf8"));
    expect(meta.title).toMatch(/^Ley Orgánica 3\/2018/);
    expect(a22?.paragraphs[1]?.text).toBe(meta.title);
    expect(a22?.title).not.toContain("Ley Orgánica 3/2018");
    expect(a22?.paragraphs[2]?.text).toMatch(/^1\. Las personas físicas o jurídicas/);
  });

  it("cuts an EU act's text into its articles, each titled with its number and subtitle", () => {
    const articles = lawArticles("32016R0679", "cellar/resource/celex/32016R0679.xhtml", fixturesRoot);
    expect(articles.size).toBe(99);
    const art5 = articles.get("32016R0679#art5");
    expect(art5?.title).toBe("Article 5. Principles relating to processing of personal data");
    expect(art5?.language).toBe("en");
    expect(art5?.paragraphs.map((p) => p.text).join(" ")).toContain("lawfully, fairly and in a transparent manner");
    // The act's title, from its recorded metadata, opens each article's text.
    expect(art5?.paragraphs[1]?.text).toMatch(/^Regulation \(EU\) 2016\/679 .*protection of natural persons/i);
    // The annex-free act ends with its last article, not the closing formula.
    expect(articles.get("32016R0679#art99")?.paragraphs.some((p) => p.text.startsWith("Done at"))).toBe(false);
  });
});
