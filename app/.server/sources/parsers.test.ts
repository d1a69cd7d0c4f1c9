import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sourcesFixturesDir } from "../fixtures-path.ts";
import { parseBoeDocument } from "./boe/document.ts";
import { parseBoeSummary } from "./boe/summary.ts";
import { SourceParseError } from "./errors.ts";
import { parseCellarMetadata, parseCellarText, toEurlexDocument } from "./eurlex/cellar.ts";
import { parseEurlexFeed } from "./eurlex/feed.ts";
import { parseFeed } from "./feeds/feed.ts";

const FIXTURES = sourcesFixturesDir;
const read = (rel: string) => readFileSync(path.join(FIXTURES, rel), "utf8");
const expected = JSON.parse(read("expected.json")) as { boe: Record<string, string[]>; eurlex: string[] };
const SUMMARIES = "boe/datosabiertos/api/boe/sumario";
const DOCUMENTS = "boe/diario_boe/xml.php";

/** A parser either answers or throws SourceParseError; nothing else. */
function onlyTypedErrors(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (!(error instanceof SourceParseError)) throw error;
  }
}

describe("every recorded payload parses", () => {
  it("BOE summaries list exactly the expected items, each once", () => {
    const files = readdirSync(path.join(FIXTURES, SUMMARIES));
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const file of files) {
      const summary = parseBoeSummary(read(`${SUMMARIES}/${file}`), file.endsWith(".xml") ? "xml" : "json");
      const ids = summary.items.map((i) => i.sourceId);
      const want = expected.boe[file.slice(0, 8)] ?? [];
      expect(new Set(ids).size, file).toBe(ids.length);
      expect([...ids].sort(), file).toEqual([...want].sort());
      expect(summary.date.replaceAll("-", "")).toBe(file.slice(0, 8));
      for (const item of summary.items) {
        expect(item.title, item.sourceId).not.toBe("");
        expect(item.sectionCode).toMatch(/^(1|2A|2B|3|4|5A|5B|5C|T)$/);
        expect(item.department.label).not.toBe("");
        expect(item.urls.xml).toContain(item.sourceId);
      }
    }
  });

  it("the XML and JSON renderings of a day give the same summary", () => {
    const json = parseBoeSummary(read(`${SUMMARIES}/20250307.json`), "json");
    const xml = parseBoeSummary(read(`${SUMMARIES}/20250307.xml`), "xml");
    expect(xml).toEqual(json);
    expect(json.issues[0]?.number).toBe("57");
  });

  it("BOE documents (real and synthesized) give typed records", () => {
    const files = readdirSync(path.join(FIXTURES, DOCUMENTS));
    for (const file of files) {
      const doc = parseBoeDocument(read(`${DOCUMENTS}/${file}`));
      expect(doc.sourceId).toBe(file.replace(/\.xml$/, ""));
      expect(doc.publishedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(doc.paragraphs.length, file).toBeGreaterThan(0);
      for (const p of doc.paragraphs) expect(p.text, file).not.toMatch(/<\/?(p|b|i|em|strong|td|table)\b/);
    }
  });

  it("reads analysis, relations with their codes, and tables as rows", () => {
    const doc = parseBoeDocument(read(`${DOCUMENTS}/BOE-A-2006-20764.xml`));
    expect(doc.rank).toEqual({ code: "1300", label: "Ley" });
    expect(doc.subjects).toContainEqual({ code: "4107", label: "Impuesto sobre la Renta de las Personas Físicas" });
    expect(doc.alerts.length).toBeGreaterThan(0);
    expect(doc.notes[0]).toMatch(/Entrada en vigor/);
    expect(doc.relations).toContainEqual(
      expect.objectContaining({
        type: "repeals",
        code: "210",
        targetSourceId: "BOE-A-2004-4456",
        direction: "earlier",
      }),
    );
    expect(doc.links.eli).toBe("https://www.boe.es/eli/es/l/2006/11/28/35");
    expect(doc.paragraphs.some((p) => p.kind === "table" && p.text.includes(" | "))).toBe(true);
    expect(doc.paragraphs.some((p) => p.kind === "heading")).toBe(true);
  });

  it("a synthesized document has its title as the only paragraph; the summary item fills the section", () => {
    const summary = parseBoeSummary(read(`${SUMMARIES}/20181206.json`), "json");
    const item = summary.items.find((i) => i.sourceId === "BOE-A-2018-16690");
    const doc = parseBoeDocument(read(`${DOCUMENTS}/BOE-A-2018-16690.xml`), item);
    expect(doc.paragraphs).toEqual([{ kind: "paragraph", text: doc.title, style: "parrafo" }]);
    expect(doc.section).toBe(item?.sectionCode);
    expect(doc.epigraph).toBe(item?.epigraph);
  });

  it("EUR-Lex feed, SPARQL metadata and XHTML texts", () => {
    const feed = parseEurlexFeed(read("eurlex/ES/display-feed.rss/222.xml"));
    expect(feed.map((e) => e.celex).sort()).toEqual([...expected.eurlex].sort());
    for (const entry of feed) {
      const meta = parseCellarMetadata(read(`cellar/sparql/${entry.celex}.json`)).get(entry.celex ?? "");
      expect(meta?.titles.en).toBeTruthy();
      expect(meta?.entryForce.length).toBeGreaterThan(0);
      const paragraphs = parseCellarText(read(`cellar/resource/celex/${entry.celex}.xhtml`));
      expect(paragraphs.length).toBeGreaterThan(50);
      const doc = toEurlexDocument(meta!, paragraphs, [], { textLanguage: "en" });
      expect(doc.rank?.code).toBe("REG");
      expect(doc.links.eli).toMatch(/^http:\/\/data\.europa\.eu\/eli\//);
    }
    const gdpr = parseCellarMetadata(read("cellar/sparql/32016R0679.json")).get("32016R0679");
    expect(gdpr?.entryForce).toEqual(["2016-05-24", "2018-05-25"]);
    expect(gdpr?.authors.map((a) => a.code).sort()).toEqual(["CONSIL", "EP"]);
    // The recordings carry no subjects: none is made up.
    expect(gdpr?.eurovoc).toEqual([]);
    expect(gdpr?.directoryCodes).toEqual([]);
  });

  it("EuroVoc concepts and directory codes: once each, with the Spanish label first", () => {
    const celex = { type: "literal", value: "32016R0679" };
    const concept = (id: string, value?: string, lang?: string) => ({
      celex,
      eurovoc: { type: "uri", value: `http://eurovoc.europa.eu/${id}` },
      ...(value ? { eurovocLabel: { type: "literal", value, ...(lang ? { "xml:lang": lang } : {}) } } : {}),
    });
    const json = JSON.stringify({
      results: {
        bindings: [
          concept("5595", "personal data", "en"),
          concept("5595", "datos personales", "es"),
          concept("5595", "personal data", "en"),
          concept("c_6e3b1e9e"),
          concept("bad id/../x?y", "x", "en"),
          {
            celex,
            directory: { type: "uri", value: "http://publications.europa.eu/resource/authority/fd_555/1320" },
            directoryLabel: { type: "literal", "xml:lang": "en", value: "Information technology" },
          },
        ],
      },
    });
    const meta = parseCellarMetadata(json).get("32016R0679");
    expect(meta?.eurovoc).toEqual([
      { code: "5595", label: "datos personales" },
      { code: "c_6e3b1e9e", label: "c_6e3b1e9e" },
    ]);
    expect(meta?.directoryCodes).toEqual([{ code: "1320", label: "Information technology" }]);
  });
});

describe("quirks", () => {
  const wrap = (seccion: unknown, extra: object = {}) =>
    JSON.stringify({
      data: {
        sumario: {
          metadatos: { publicacion: "BOE", fecha_publicacion: "20240529" },
          diario: [{ numero: "1", seccion }],
          ...extra,
        },
      },
    });
  const item = (id: string) => ({
    identificador: id,
    titulo: `T ${id}`,
    url_xml: `https://www.boe.es/diario_boe/xml.php?id=${id}`,
  });

  it("handles a BOM, single children as objects and under texto, items under a department, duplicates", () => {
    const body = `\ufeff${wrap({
      codigo: "1",
      nombre: "I",
      texto: {
        departamento: {
          codigo: "1",
          nombre: "D",
          texto: { item: [item("BOE-A-2024-1"), item("BOE-A-2024-1")] },
          epigrafe: { nombre: "E", item: item("BOE-A-2024-2") },
        },
      },
    })}`;
    const summary = parseBoeSummary(body, "json");
    expect(summary.items.map((i) => i.sourceId)).toEqual(["BOE-A-2024-1", "BOE-A-2024-2"]);
    expect(summary.duplicates).toEqual(["BOE-A-2024-1"]);
    expect(summary.items[1]?.epigraph).toBe("E");
  });

  it("several diario in a day", () => {
    const body = JSON.stringify({
      data: {
        sumario: {
          metadatos: { fecha_publicacion: "20240529" },
          diario: [
            {
              numero: "130",
              seccion: {
                codigo: "1",
                nombre: "I",
                departamento: { codigo: "1", nombre: "D", item: item("BOE-A-2024-1") },
              },
            },
            {
              numero: "131",
              seccion: {
                codigo: "1",
                nombre: "I",
                departamento: { codigo: "1", nombre: "D", item: item("BOE-A-2024-9") },
              },
            },
          ],
        },
      },
    });
    const summary = parseBoeSummary(body, "json");
    expect(summary.issues.map((i) => i.number)).toEqual(["130", "131"]);
    expect(summary.items.map((i) => i.issueNumber)).toEqual(["130", "131"]);
  });

  it("reads RSS 2.0 and Atom, and OJ links in the EUR-Lex feed", () => {
    const rss = `<rss version="2.0"><channel><item><title>A &amp; B</title><link>https://eur-lex.europa.eu/legal-content/AUTO/?uri=OJ:L_202601957</link><guid>x</guid><pubDate>Tue, 07 Apr 2026 10:00:00 GMT</pubDate></item></channel></rss>`;
    expect(parseEurlexFeed(rss)).toEqual([
      {
        celex: null,
        ojReference: "L_202601957",
        title: "A & B",
        link: "https://eur-lex.europa.eu/legal-content/AUTO/?uri=OJ:L_202601957",
        publishedOn: "2026-04-07",
      },
    ]);
    const atom = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><id>urn:1</id><title type="html">&lt;b&gt;Hola&lt;/b&gt;</title><link rel="alternate" href="https://x.es/1"/><updated>2026-04-07T08:00:00Z</updated><summary>S</summary></entry></feed>`;
    expect(parseFeed(atom)).toEqual([
      {
        id: "urn:1",
        title: "Hola",
        link: "https://x.es/1",
        summary: "S",
        publishedAt: "2026-04-07T08:00:00.000Z",
        publishedOn: "2026-04-07",
      },
    ]);
  });

  it("rejects what is not a payload with a typed error", () => {
    expect(() => parseBoeSummary("{}", "json")).toThrow(SourceParseError);
    expect(() => parseBoeSummary("<response><data>", "xml")).toThrow(SourceParseError);
    expect(() => parseBoeDocument("<documento><metadatos><titulo>x</titulo></metadatos></documento>")).toThrow(
      /identificador/,
    );
    expect(() => parseFeed("<html/>")).toThrow(SourceParseError);
    expect(() => parseCellarMetadata("[1]")).toThrow(SourceParseError);
    expect(() => parseCellarText("<html><head/></html>")).toThrow(SourceParseError);
  });
});

describe("fuzz: parsers return a result or a SourceParseError, never anything else", () => {
  const samples = {
    summary: read(`${SUMMARIES}/20181206.json`),
    summaryXml: read(`${SUMMARIES}/20250307.xml`),
    document: read(`${DOCUMENTS}/BOE-A-2022-4968.xml`),
    feed: read("eurlex/ES/display-feed.rss/222.xml"),
    sparql: read("cellar/sparql/32016R0679.json"),
    xhtml: read("cellar/resource/celex/32015R2120.xhtml").slice(0, 40_000),
  };
  const parsers: Array<[string, (s: string) => unknown]> = [
    ["summary", (s) => parseBoeSummary(s, "json")],
    ["summaryXml", (s) => parseBoeSummary(s, "xml")],
    ["document", (s) => parseBoeDocument(s)],
    ["feed", (s) => parseEurlexFeed(s)],
    ["sparql", (s) => parseCellarMetadata(s)],
    ["xhtml", (s) => parseCellarText(s)],
  ];
  /** Truncations, cut-and-splice mutations and random insertions of a real payload. */
  const mutated = (base: string) =>
    fc.oneof(
      fc.nat({ max: base.length }).map((n) => base.slice(0, n)),
      fc
        .tuple(fc.nat({ max: base.length }), fc.nat({ max: 400 }), fc.string({ maxLength: 30 }))
        .map(([at, len, junk]) => base.slice(0, at) + junk + base.slice(at + len)),
      fc
        .tuple(
          fc.nat({ max: base.length }),
          fc.constantFrom("<", ">", "</texto>", "<p>", '"', "{", "}", "[", "]", "&amp;", "&#0;", "<![CDATA["),
        )
        .map(([at, token]) => base.slice(0, at) + token + base.slice(at)),
    );
  for (const [name, parse] of parsers) {
    it(`${name}: random and mutated bytes`, () => {
      const base = samples[name as keyof typeof samples];
      fc.assert(
        fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.json(), mutated(base)), (input) => {
          onlyTypedErrors(() => parse(input));
        }),
        { numRuns: 150 },
      );
    }, 30_000);
  }

  it("deep nesting and odd shapes", () => {
    const deep = `${"<div>".repeat(5000)}x${"</div>".repeat(5000)}`;
    for (const [, parse] of parsers) {
      onlyTypedErrors(() => parse(deep));
      onlyTypedErrors(() =>
        parse(
          `{"data":{"sumario":{"metadatos":{"fecha_publicacion":"20240101"},"diario":${"[".repeat(3000)}${"]".repeat(3000)}}}}`,
        ),
      );
      onlyTypedErrors(() =>
        parse(
          '{"data":{"sumario":{"metadatos":{"fecha_publicacion":"20240101"},"diario":{"seccion":{"texto":{"texto":{"departamento":null}}}}}}}',
        ),
      );
    }
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const body =
          JSON.stringify({ data: { sumario: { metadatos: { fecha_publicacion: "20240101" }, diario: value } } }) ?? "";
        onlyTypedErrors(() => parseBoeSummary(body, "json"));
      }),
      { numRuns: 200 },
    );
  }, 30_000);
});
