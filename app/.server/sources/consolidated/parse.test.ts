/**
 * Every recorded consolidated law with text (fixtures/sources/boe/…/legislacion-consolidada):
 * the blocks and versions parsed equal the payload's, read again here through an XML tree (not
 * the parser's own route); each block answer equals the block inside the whole law; the index
 * lists the same blocks with their latest publication dates; and the text in force at each
 * version's date is that version's text (whitespace normalised). Plus the recorded traps.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { sourcesFixturesDir } from "../../fixtures-path.ts";
import { effectiveDate, type LawText, textAt, versionsOf } from "../../law-texts/model.ts";
import { parseBlock, parseIndex, parseMetadatos, parseWholeLaw } from "./parse.ts";

const dir = path.join(sourcesFixturesDir, "boe/datosabiertos/api/legislacion-consolidada/id");
const lawsWithText = readdirSync(dir)
  .filter((name) => name.endsWith(".xml"))
  .map((name) => name.slice(0, -4))
  .sort();

const tree = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  preserveOrder: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
});

type Node = Record<string, unknown>;
const tag = (n: Node) => Object.keys(n).find((k) => k !== ":@") ?? "";
const kids = (n: Node) => (n[tag(n)] as Node[]) ?? [];
const attrs = (n: Node) => (n[":@"] as Record<string, string>) ?? {};
const BLOCK_LEVEL = /^(p|div|td|th|tr|li|br|h\d|table|tbody|thead|tfoot|ul|ol|img|caption)$/i;

function textOfNodes(nodes: Node[]): string {
  let out = "";
  for (const n of nodes) {
    const t = tag(n);
    if (t === "#text") out += String(n["#text"]);
    else if (t === "blockquote") out += " ";
    else if (BLOCK_LEVEL.test(t)) out += ` ${textOfNodes(kids(n))} `;
    else out += textOfNodes(kids(n));
  }
  return out;
}
const norm = (s: string) => s.replace(/[\s\u00a0]+/g, " ").trim();

interface Expected {
  id: string;
  kind: string;
  title: string;
  expires?: string;
  versions: Array<{ norm: string; pub: string; vig: string; text: string }>;
}

function expectedBlocks(xml: string): Expected[] {
  const out: Expected[] = [];
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      if (tag(n) === "bloque" && attrs(n).id) {
        const a = attrs(n);
        out.push({
          id: a.id as string,
          kind: a.tipo ?? "",
          title: a.titulo ?? "",
          ...(a.fecha_caducidad ? { expires: a.fecha_caducidad } : {}),
          versions: kids(n)
            .filter((v) => tag(v) === "version")
            .map((v) => ({
              norm: attrs(v).id_norma as string,
              pub: attrs(v).fecha_publicacion as string,
              vig: attrs(v).fecha_vigencia ?? "",
              text: norm(textOfNodes(kids(v))),
            })),
        });
      } else if (tag(n) !== "#text") walk(kids(n));
    }
  };
  walk(tree.parse(xml) as Node[]);
  return out;
}

const iso = (d: string) => (d ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` : null);

describe("BOE consolidated laws: parsed equals the payload", () => {
  it("has the recorded laws with text", () => {
    expect(lawsWithText.length).toBeGreaterThanOrEqual(8);
  });

  for (const lawId of lawsWithText) {
    describe(lawId, () => {
      const xml = readFileSync(path.join(dir, `${lawId}.xml`), "utf8");
      const parsed = parseWholeLaw(xml);
      const expected = expectedBlocks(xml);

      it("blocks and versions equal the payload's", () => {
        expect(parsed.metadata.id).toBe(lawId);
        expect(parsed.blocks.map((b) => b.blockId)).toEqual(expected.map((b) => b.id));
        for (const [i, block] of parsed.blocks.entries()) {
          const e = expected[i] as Expected;
          expect({ kind: block.kind, title: block.title, expires: block.expiresOn }).toEqual({
            kind: e.kind,
            title: norm(e.title),
            expires: e.expires ? iso(e.expires) : null,
          });
          expect(block.versions.map((v) => [v.normId, v.publishedOn, v.inForceOn, v.text])).toEqual(
            e.versions.map((v) => [v.norm, iso(v.pub), iso(v.vig), v.text]),
          );
        }
      });

      it("each block answer equals the block in the whole law, and the index its latest dates", () => {
        const indexEntries = parseIndex(readFileSync(path.join(dir, lawId, "texto/indice.xml"), "utf8"));
        expect(indexEntries.map((e) => e.blockId)).toEqual(parsed.blocks.map((b) => b.blockId));
        for (const block of parsed.blocks) {
          const latest = block.versions
            .map((v) => v.publishedOn)
            .sort()
            .at(-1);
          expect(indexEntries.find((e) => e.blockId === block.blockId)?.date, block.blockId).toBe(latest);
          const answer = parseBlock(
            readFileSync(path.join(dir, lawId, "texto/bloque", `${block.blockId}.xml`), "utf8"),
          );
          expect(answer, block.blockId).toEqual(block);
        }
        const meta = parseMetadatos(readFileSync(path.join(dir, lawId, "metadatos.xml"), "utf8"));
        expect(meta.updatedAt).toBe(parsed.metadata.updatedAt);
      });

      it("each block's text at each version date equals that version's payload text", () => {
        const law: LawText = {
          law: { id: lawId, source: "boe", title: "", eli: null, metadata: {}, updatedAt: null },
          blocks: parsed.blocks.map((b, position) => ({
            lawId,
            blockId: b.blockId,
            kind: b.kind,
            title: b.title,
            position,
            latestDate: "",
            expiresOn: b.expiresOn,
            versions: b.versions.map((v) => ({ ...v, lawId, blockId: b.blockId })),
          })),
        };
        let checked = 0;
        for (const e of expected) {
          for (const v of e.versions) {
            const date = iso(v.vig) ?? (iso(v.pub) as string);
            // The payload's wording in force that day: the latest by entry into force (then publication) not after it.
            const inForce = e.versions
              .filter((w) => (iso(w.vig) ?? iso(w.pub))! <= date)
              .sort(
                (a, b) =>
                  (a.vig || a.pub).localeCompare(b.vig || b.pub) ||
                  a.pub.localeCompare(b.pub) ||
                  a.norm.localeCompare(b.norm),
              )
              .at(-1);
            const at = textAt(law, date).find((x) => x.block.blockId === e.id);
            if (e.expires && iso(e.expires)! <= date) {
              expect(at, `${e.id} expired on ${e.expires}`).toBeUndefined();
              continue;
            }
            expect(norm(at?.version.text ?? ""), `${e.id} at ${date}`).toBe(inForce?.text);
            checked++;
          }
        }
        expect(checked).toBeGreaterThan(0);
      });
    });
  }

  it("sorts versions by date, not by the payload's order (BOE-A-1985-5392 a2)", () => {
    const law = parseWholeLaw(readFileSync(path.join(dir, "BOE-A-1985-5392.xml"), "utf8"));
    const a2 = law.blocks.find((b) => b.blockId === "a2");
    expect(a2?.versions.map((v) => v.publishedOn)).toEqual(["1985-04-03", "2013-12-30", "1990-01-11"]);
    expect(
      versionsOf(a2 as { versions: Array<{ normId: string; publishedOn: string; inForceOn: string | null }> }).map(
        effectiveDate,
      ),
    ).toEqual([...(a2?.versions ?? []).map(effectiveDate)].sort());
  });

  it("keeps a repealed article's old version and its expiry (BOE-A-2006-13371 a35)", () => {
    const law = parseWholeLaw(readFileSync(path.join(dir, "BOE-A-2006-13371.xml"), "utf8"));
    const a35 = law.blocks.find((b) => b.blockId === "a35");
    expect(a35?.expiresOn).toBe("2019-03-30");
    expect(a35?.versions).toHaveLength(1);
  });

  it("reads block ids ending in a dot, and the JSON metadatos and index like the XML", () => {
    const withDot = readdirSync(path.join(dir, "BOE-A-1985-5392/texto/bloque")).find((f) => f.endsWith("..xml"));
    expect(withDot).toBeDefined();
    const block = parseBlock(readFileSync(path.join(dir, "BOE-A-1985-5392/texto/bloque", withDot as string), "utf8"));
    expect(block.blockId.endsWith(".")).toBe(true);
    const base = path.join(dir, "BOE-A-2018-16673");
    expect(parseMetadatos(readFileSync(path.join(base, "metadatos.json"), "utf8"), "json").id).toBe("BOE-A-2018-16673");
    const jsonIndex = parseIndex(readFileSync(path.join(base, "texto/indice.json"), "utf8"), "json");
    const xmlIndex = parseIndex(readFileSync(path.join(base, "texto/indice.xml"), "utf8"));
    expect(jsonIndex.map((e) => e.blockId)).toEqual(xmlIndex.map((e) => e.blockId));
  });

  it("rejects a truncated payload with a parse error", () => {
    const xml = readFileSync(path.join(dir, "BOE-A-2013-12887/texto/bloque/a9.xml"), "utf8");
    expect(() => parseBlock(xml.slice(0, xml.length / 2))).toThrow(/boe-consolidated/);
  });
});
