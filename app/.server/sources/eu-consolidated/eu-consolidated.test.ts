import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { recordedEuVersions } from "../../../../tests/support/law-fixtures.ts";
import { sourcesFixturesDir } from "../../fixtures-path.ts";
import { versionAt, versionsOf } from "../../law-texts/model.ts";
import { compareEuVersions, euLawModel } from "./compare.ts";
import { consolidatedCelex, parseEuConsolidated, splitConsolidatedCelex } from "./parse.ts";
import { consolidatedVersionsAnswer, isHiddenVersion } from "./replay.ts";

const recorded = recordedEuVersions();
const xhtml = new Map<string, string>();
for (const versions of recorded.values()) for (const v of versions) xhtml.set(v.celex, readFileSync(v.file, "utf8"));
const parsed = new Map([...xhtml].map(([celex, text]) => [celex, parseEuConsolidated(text)]));
const get = (celex: string) => parsed.get(celex)!;

const summary = (before: string, after: string) => {
  const out: Record<string, string[]> = {};
  for (const c of compareEuVersions(get(before), get(after))) {
    if (c.status === "same") continue;
    const list = out[c.status] ?? [];
    list.push((c.after ?? c.before) as string);
    out[c.status] = list;
  }
  return out;
};

describe("EU consolidated versions (Cellar XHTML)", () => {
  it("three recorded acts, seven versions, both layouts", () => {
    expect([...recorded.keys()].sort()).toEqual(["32009R1107", "32014R0596", "32014R0910"]);
    expect(get("02014R0596-20160703").layout).toBe("headings");
    expect(get("02009R1107-20221121").layout).toBe("headings");
    expect(get("02014R0596-20210101").layout).toBe("eli");
    expect(get("02014R0910-20241018").layout).toBe("eli");
    for (const [celex, text] of parsed) {
      expect(splitConsolidatedCelex(celex)).toEqual({ actCelex: text.actCelex, date: text.date });
      const numbers = text.blocks.filter((b) => b.kind === "article").map((b) => b.number);
      expect(new Set(numbers).size, celex).toBe(numbers.length);
      expect(numbers[0], celex).toBe("1");
    }
    expect(consolidatedCelex("32014R0596", "2024-01-09")).toBe("02014R0596-20240109");
  });

  it("an article's wording: subtitle, numbered paragraphs with their labels, no markers or footnote calls", () => {
    const art17 = get("02014R0596-20240109").blocks.find((b) => b.blockId === "art_17")!;
    expect(art17.title).toBe("Article 17");
    expect(art17.paragraphs[0]).toBe("Public disclosure of inside information");
    expect(art17.paragraphs[1]).toMatch(/^1\. An issuer shall inform the public as soon as possible/);
    expect(art17.paragraphs.join(" ")).not.toMatch(/[►▼◄]|\(\s*\d+\s*\)\. The issuer/);
    // The same article in the older layout reads the same where the wording did not change.
    const old17 = get("02014R0596-20160703").blocks.find((b) => b.blockId === "art_17")!;
    expect(old17.paragraphs.slice(0, 3)).toEqual(art17.paragraphs.slice(0, 3));
  });

  it("each act's versions compare article by article, matched by number across layouts", () => {
    // 2016 (headings only) → 2021 (eli ids): Regulation (EU) 2019/2115 changed six articles.
    expect(summary("02014R0596-20160703", "02014R0596-20210101")).toEqual({
      changed: ["art_11", "art_13", "art_17", "art_18", "art_19", "art_35"],
    });
    // 2021 → 2024: Regulation (EU) 2023/2869 inserted Article 21a; nothing else moved.
    expect(summary("02014R0596-20210101", "02014R0596-20240109")).toEqual({ added: ["art_21a"] });
    // eIDAS: Article 19 deleted (by Directive 2022/2555); Article 19a and every later article keep their number.
    expect(summary("02014R0910-20240520", "02014R0910-20241018")).toEqual({ removed: ["art_19"] });
    // Plant protection products: two annexes amended, no article.
    expect(summary("02009R1107-20210327", "02009R1107-20221121")).toEqual({ changed: ["anx_II", "anx_III"] });
  });

  it("an article renumbered between versions is shown as renumbered, not as removed and added", () => {
    const renamed = xhtml
      .get("02014R0596-20240109")!
      .replace('id="art_21a"', 'id="art_21b"')
      .replace(/>\s*Article 21a\s*</, ">Article 21b<");
    const comparison = compareEuVersions(get("02014R0596-20240109"), parseEuConsolidated(renamed));
    const moved = comparison.filter((c) => c.status !== "same");
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ status: "renumbered", before: "art_21a", after: "art_21b" });
    expect(moved[0]?.diff?.identical).toBe(true);
  });

  it("the law model: versions per article dated by the consolidation, credited to the amending act", () => {
    const inputs = (act: string) =>
      recorded.get(act)!.map((v) => ({
        celex: v.celex,
        date: v.date,
        text: get(v.celex),
        provenance: {
          url: `https://publications.europa.eu/resource/celex/${v.celex}`,
          fetchedAt: new Date(),
          sha256: "x",
        },
      }));
    const mar = euLawModel("32014R0596", inputs("32014R0596"));
    const versionsOfBlock = (id: string) =>
      versionsOf({ versions: mar.versions.filter((v) => v.blockId === id) }).map((v) => [v.normId, v.publishedOn]);
    expect(versionsOfBlock("art_17")).toEqual([
      ["32014R0596", "2016-07-03"],
      ["32019R2115", "2021-01-01"],
    ]);
    expect(versionsOfBlock("art_21a")).toEqual([["32023R2869", "2024-01-09"]]);
    expect(versionsOfBlock("art_1")).toEqual([["32014R0596", "2016-07-03"]]);
    // Article 21a sits between 21 and 22.
    const order = mar.blocks.map((b) => b.blockId);
    expect(order.indexOf("art_21a")).toBe(order.indexOf("art_21") + 1);
    // eIDAS Article 19: repealed on 2024-10-18, kept in place, its old wording in force before.
    const eidas = euLawModel("32014R0910", inputs("32014R0910"));
    const art19 = eidas.blocks.find((b) => b.blockId === "art_19")!;
    expect(art19.expiresOn).toBe("2024-10-18");
    const order2 = eidas.blocks.map((b) => b.blockId);
    expect(order2.indexOf("art_19")).toBe(order2.indexOf("art_19a") - 1);
    const art19Versions = eidas.versions.filter((v) => v.blockId === "art_19");
    expect(versionAt({ versions: art19Versions, expiresOn: art19.expiresOn }, "2024-06-01")?.publishedOn).toBe(
      "2024-05-20",
    );
    expect(versionAt({ versions: art19Versions, expiresOn: art19.expiresOn }, "2024-10-18")).toBeUndefined();
    // Every stored wording is our own markup: escaped text in paragraphs.
    for (const v of [...mar.versions, ...eidas.versions]) expect(v.html).not.toMatch(/<(?!\/?p>)/);
  });

  it("the replay lists an act's recorded versions for a consolidation query, up to a chosen date", () => {
    const query =
      'SELECT ?celex ?date WHERE { ?c cdm:act_consolidated_consolidates_resource_legal ?a . ?a cdm:resource_legal_id_celex "32014R0596" }';
    const all = JSON.parse(consolidatedVersionsAnswer(sourcesFixturesDir, query, null));
    expect(all.results.bindings.map((b: { celex: { value: string } }) => b.celex.value)).toEqual([
      "02014R0596-20160703",
      "02014R0596-20210101",
      "02014R0596-20240109",
    ]);
    const before = JSON.parse(consolidatedVersionsAnswer(sourcesFixturesDir, query, "2023-12-31"));
    expect(before.results.bindings.map((b: { date: { value: string } }) => b.date.value)).toEqual([
      "2016-07-03",
      "2021-01-01",
    ]);
    expect(isHiddenVersion("/resource/celex/02014R0596-20240109", "2023-12-31")).toBe(true);
    expect(isHiddenVersion("/resource/celex/02014R0596-20210101", "2023-12-31")).toBe(false);
    expect(isHiddenVersion("/resource/celex/32014R0596", "2023-12-31")).toBe(false);
  });
});
