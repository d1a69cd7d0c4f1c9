import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourcesFixturesDir } from "../fixtures-path.ts";
import { parseBoeDocument } from "../sources/boe/document.ts";
import { changeLines, changeOf, changeSentence } from "./changes.ts";

const dir = path.join(sourcesFixturesDir, "boe/diario_boe/xml.php");

/** Relation codes (palabra@codigo) that change the norm named: the BOE's own code table. */
const CHANGE_CODES = new Set(["201", "203", "210", "231", "235", "270", "407"]);

const decode = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/**
 * What the raw analysis says, read with regular expressions (not the source's parser): each
 * `<anterior>` whose code is a change, or a ruling that declares a nullity, with its target and
 * the line "Verb text" as the page must show it.
 */
function expectedLines(xml: string): Array<{ lawId: string; line: string }> {
  const anteriores = /<anteriores>([\s\S]*?)<\/anteriores>/.exec(xml)?.[1] ?? "";
  const out: Array<{ lawId: string; line: string }> = [];
  for (const m of anteriores.matchAll(
    /<anterior referencia="([^"]+)"[^>]*>\s*<palabra codigo="(\d+)">([^<]*)<\/palabra>\s*<texto>([^<]*)<\/texto>/g,
  )) {
    const [, lawId, code, verb, rawText] = m as unknown as [string, string, string, string, string];
    const text = decode(rawText).replace(/\s+/g, " ").trim();
    const voids = code === "470" && /^(la|su)?\s*(nulidad|inconstitucionalidad)/i.test(text);
    if (!CHANGE_CODES.has(code) && !voids) continue;
    const v = decode(verb).trim();
    const capital = v.charAt(0) + v.slice(1).toLowerCase();
    out.push({ lawId, line: /^[,.;:]/.test(text) ? capital + text : `${capital} ${text}` });
  }
  return out;
}

describe("what a gazette act changes", () => {
  const recorded = readdirSync(dir)
    .filter((f) => f.endsWith(".xml"))
    .map((f) => ({ file: f, xml: readFileSync(path.join(dir, f), "utf8") }))
    .filter(({ xml }) => /<anterior\b/.test(xml));

  it("covers every recorded act with <anteriores>, changes and non-changes alike", () => {
    expect(recorded.length).toBeGreaterThanOrEqual(19);
    const all = recorded.flatMap(({ xml }) => expectedLines(xml));
    expect(all.length).toBeGreaterThanOrEqual(30);
    // Citations, "de conformidad", appeals and declarations of force are in the fixtures and are not changes.
    expect(recorded.some(({ xml }) => /<palabra codigo="(330|440|480|552)">/.test(xml))).toBe(true);
  });

  it.each(
    readdirSync(dir)
      .filter((f) => f.endsWith(".xml") && /<anterior\b/.test(readFileSync(path.join(dir, f), "utf8")))
      .sort(),
  )("%s: the page's lines match the analysis", (file) => {
    const xml = readFileSync(path.join(dir, file), "utf8");
    const lines = changeLines(parseBoeDocument(xml).relations).map(({ lawId, line }) => ({ lawId, line }));
    expect(lines).toEqual(expectedLines(xml));
  });

  it("reads the verbs the BOE writes, and leaves the rest out", () => {
    expect(changeOf("MODIFICA el art. 13 de la Ley 38/2003, de 17 de noviembre")).toEqual({
      verb: "modifies",
      verbText: "MODIFICA",
      text: "el art. 13 de la Ley 38/2003, de 17 de noviembre",
    });
    expect(changeOf("AÑADE un art. 61 bis")?.verb).toBe("adds");
    expect(changeOf("DEROGA la Ley Orgánica 3/1987")?.verb).toBe("repeals");
    expect(changeOf("SUPRIME la disposición final única")?.verb).toBe("removes");
    expect(changeOf("CORRECCIÓN de errores de la Ley 12/2022")?.verb).toBe("corrects");
    expect(changeOf("DECLARA la inconstitucionalidad y nulidad del art. 5")?.verb).toBe("voids");
    expect(changeOf("DECLARA la desestimación en relación con el art. 36")).toBeUndefined();
    expect(changeOf("DECLARA la vigencia De lo indicado del art. 13")).toBeUndefined();
    expect(changeOf("CITA Ley 12/2023")).toBeUndefined();
    expect(changeOf("DE CONFORMIDAD con los arts. 25 y 26")).toBeUndefined();
    expect(changeSentence("MODIFICA", ", en la forma indicada, determinados preceptos")).toBe(
      "Modifica, en la forma indicada, determinados preceptos",
    );
  });

  it("types AÑADE and SUPRIME as additions and removals (they were 'develops' and 'corrects')", () => {
    const types = (file: string) =>
      parseBoeDocument(readFileSync(path.join(dir, file), "utf8")).relations.map((r) => [r.targetSourceId, r.type]);
    expect(types("BOE-A-2007-13022.xml")).toContainEqual(["BOE-A-2006-20764", "adds"]);
    expect(types("BOE-A-2021-21666.xml")).toContainEqual(["BOE-A-2019-17286", "removes"]);
    expect(types("BOE-A-2022-16278.xml")).toContainEqual(["BOE-A-2006-20764", "corrects"]);
  });

  it("keeps later relations (what changed this act) out", () => {
    expect(
      changeLines([
        { direction: "later", targetSourceId: "BOE-A-2020-1", label: "SE MODIFICA el art. 2" },
        { direction: "earlier", targetSourceId: "BOE-A-2003-20977", label: "MODIFICA el art. 13" },
      ]),
    ).toEqual([
      {
        lawId: "BOE-A-2003-20977",
        verb: "modifies",
        verbText: "MODIFICA",
        text: "el art. 13",
        line: "Modifica el art. 13",
      },
    ]);
  });
});
