import { describe, expect, it } from "vitest";
import { recordedBoeBlocks } from "../../../tests/support/law-fixtures.ts";
import { compareWordings, type DiffSegment, paragraphsOfHtml } from "./diff.ts";

const joined = (segments: DiffSegment[] | null, drop: "ins" | "del") =>
  (segments ?? [])
    .filter((s) => s.kind !== drop)
    .map((s) => s.text)
    .join("");

const blocks = recordedBoeBlocks();
const a9 = blocks.find((b) => b.lawId === "BOE-A-2015-10565" && b.blockId === "a9");

describe("word-level comparison", () => {
  it("BOE-A-2015-10565 a9, 2015 → 2019: the changed words, paragraph by paragraph", () => {
    expect(a9?.versions.map((v) => v.normId)).toEqual(["BOE-A-2015-10565", "BOE-A-2019-15790", "BOE-A-2022-10757"]);
    const [first, second] = a9!.versions;
    const diff = compareWordings(paragraphsOfHtml(first!.html), paragraphsOfHtml(second!.html));
    expect(diff.identical).toBe(false);
    // The heading and paragraph 1 are unchanged and stay whole.
    expect(diff.rows[0]?.kind).toBe("same");
    expect(diff.rows[0]?.inline[0]?.text).toMatch(/^Artículo 9\. Sistemas de identificación/);
    expect(diff.rows[1]?.kind).toBe("same");
    // Paragraph 2 lost "cualquier sistema que cuente con un registro previo…" and gained "los sistemas".
    const p2 = diff.rows[2]!;
    expect(p2.kind).toBe("changed");
    const deleted = p2.inline
      .filter((s) => s.kind === "del")
      .map((s) => s.text)
      .join("|");
    const inserted = p2.inline
      .filter((s) => s.kind === "ins")
      .map((s) => s.text)
      .join("|");
    expect(deleted).toContain("cualquier sistema que cuente con un registro previo");
    // Only words removed: the rest reads "a través de los sistemas siguientes:".
    expect(inserted).toBe("");
    expect(joined(p2.right, "del")).toBe(
      "2. Los interesados podrán identificarse electrónicamente ante las Administraciones Públicas a través de los sistemas siguientes:",
    );
    expect(joined(p2.left, "ins")).toMatch(/^2\. Los interesados podrán identificarse electrónicamente/);
    // A word-level change: most of the paragraph is shared.
    const shared = p2.inline.filter((s) => s.kind === "same").reduce((n, s) => n + s.text.length, 0);
    expect(shared).toBeGreaterThan(60);
    // Letter a): "reconocidos o" removed; the quotes changed.
    const pa = diff.rows.find((r) => r.kind === "changed" && joined(r.left, "ins").startsWith("a) Sistemas"));
    expect(pa?.inline.some((s) => s.kind === "del" && s.text.includes("reconocidos o"))).toBe(true);
    expect(diff.insertedWords).toBeGreaterThan(50);
    expect(diff.deletedWords).toBeGreaterThan(10);
  });

  it("two identical wordings give no change; whitespace is not a change", () => {
    const diff = compareWordings("Uno  dos tres.\nCuatro.", ["Uno dos tres.", " Cuatro. "]);
    expect(diff.identical).toBe(true);
    expect(diff.rows.map((r) => r.kind)).toEqual(["same", "same"]);
  });

  it("an added and a removed paragraph stay whole rows; an unrelated rewrite is not paired", () => {
    const diff = compareWordings(
      ["Artículo 1.", "Texto que desaparece por completo sin dejar rastro."],
      ["Artículo 1.", "Zzz qqq www.", "Otro párrafo nuevo."],
    );
    expect(diff.rows.map((r) => r.kind)).toEqual(["same", "removed", "added", "added"]);
    expect(diff.rows[1]?.right).toBeNull();
    expect(diff.rows[2]?.left).toBeNull();
  });

  it("every recorded pair of consecutive versions: both sides rebuild the wordings exactly", () => {
    let pairs = 0;
    for (const block of blocks) {
      for (let i = 1; i < block.versions.length; i++) {
        const before = paragraphsOfHtml(block.versions[i - 1]!.html);
        const after = paragraphsOfHtml(block.versions[i]!.html);
        const diff = compareWordings(before, after);
        const left = diff.rows.filter((r) => r.left).map((r) => joined(r.left, "ins"));
        const right = diff.rows.filter((r) => r.right).map((r) => joined(r.right, "del"));
        expect(left, `${block.lawId} ${block.blockId} #${i} left`).toEqual(before);
        expect(right, `${block.lawId} ${block.blockId} #${i} right`).toEqual(after);
        // The inline view holds every word of both sides.
        const inlineOld = diff.rows.map((r) => joined(r.inline, "ins").trim()).filter(Boolean);
        expect(inlineOld.join(" ").replace(/\s+/g, " ")).toBe(before.join(" ").replace(/\s+/g, " "));
        pairs++;
      }
    }
    expect(pairs).toBeGreaterThan(200);
  });

  it("notes (blockquote) are not part of the wording", () => {
    const html =
      '<p class="articulo">Artículo 2.</p><p>Texto.</p><blockquote><p class="nota_pie">Se modifica por <a class="refPost">Ref. BOE-A-2019-1</a></p></blockquote>';
    expect(paragraphsOfHtml(html)).toEqual(["Artículo 2.", "Texto."]);
  });
});
