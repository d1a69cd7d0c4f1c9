/**
 * Article-level comparison of two consolidated versions of an EU act, and the law model built
 * from all of them. Articles are matched by number (`art_21a` with `art_21a`), never by
 * position; an article that only exists on one side is added or removed, unless its wording
 * is (nearly) that of an article that disappeared on the other side under another number: then
 * it was renumbered.
 */
import { createHash } from "node:crypto";
import { compareWordings, paragraphsOf, type WordDiff } from "../../laws/diff.ts";
import type { EuBlock, EuConsolidatedText } from "./parse.ts";

export type ArticleChange = "same" | "changed" | "added" | "removed" | "renumbered";

export interface ArticleComparison {
  status: ArticleChange;
  /** The block id on each side (null where the article does not exist). */
  before: string | null;
  after: string | null;
  title: string;
  diff: WordDiff | null;
}

/** Above this word similarity, an article that moved number counts as renumbered. */
const RENUMBERED_SIMILARITY = 0.8;

function wordSet(paragraphs: readonly string[]): Set<string> {
  return new Set(
    paragraphs
      .join(" ")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [],
  );
}

function diceOf(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/** The wording without its first line when that is the article's subtitle (kept: it is text). */
function bodyOf(block: EuBlock): string[] {
  return block.paragraphs;
}

/** Compares two versions article by article (and annex by annex); headings are left out. */
export function compareEuVersions(before: EuConsolidatedText, after: EuConsolidatedText): ArticleComparison[] {
  const textual = (b: EuBlock) => b.kind !== "heading";
  const left = new Map(before.blocks.filter(textual).map((b) => [b.blockId, b]));
  const right = new Map(after.blocks.filter(textual).map((b) => [b.blockId, b]));
  const onlyLeft = [...left.values()].filter((b) => !right.has(b.blockId));
  const onlyRight = [...right.values()].filter((b) => !left.has(b.blockId));
  // Renumbered: the best remaining match above the threshold, one to one.
  const renumbered = new Map<string, EuBlock>();
  const taken = new Set<string>();
  for (const moved of onlyRight) {
    if (moved.kind !== "article") continue;
    const words = wordSet(bodyOf(moved));
    let best: { block: EuBlock; score: number } | null = null;
    for (const gone of onlyLeft) {
      if (gone.kind !== "article" || taken.has(gone.blockId)) continue;
      const score = diceOf(words, wordSet(bodyOf(gone)));
      if (score >= RENUMBERED_SIMILARITY && (!best || score > best.score)) best = { block: gone, score };
    }
    if (best) {
      renumbered.set(moved.blockId, best.block);
      taken.add(best.block.blockId);
    }
  }
  const out: ArticleComparison[] = [];
  for (const block of after.blocks.filter(textual)) {
    const old = left.get(block.blockId);
    if (old) {
      const diff = compareWordings(old.paragraphs, block.paragraphs);
      out.push({
        status: diff.identical ? "same" : "changed",
        before: old.blockId,
        after: block.blockId,
        title: block.title,
        diff: diff.identical ? null : diff,
      });
      continue;
    }
    const from = renumbered.get(block.blockId);
    if (from) {
      out.push({
        status: "renumbered",
        before: from.blockId,
        after: block.blockId,
        title: block.title,
        diff: compareWordings(from.paragraphs, block.paragraphs),
      });
      continue;
    }
    out.push({ status: "added", before: null, after: block.blockId, title: block.title, diff: null });
  }
  for (const gone of onlyLeft) {
    if (taken.has(gone.blockId)) continue;
    out.push({ status: "removed", before: gone.blockId, after: null, title: gone.title, diff: null });
  }
  return out;
}

// ---- the law model from every version ----

export interface EuVersionInput {
  /** The consolidated CELEX (02014R0596-20240109). */
  celex: string;
  /** The version's date (YYYY-MM-DD): the consolidation applies from it. */
  date: string;
  text: EuConsolidatedText;
  provenance: { url: string; fetchedAt: Date; sha256: string };
}

export interface EuModelBlock {
  blockId: string;
  kind: string;
  title: string;
  position: number;
  latestDate: string;
  expiresOn: string | null;
  /** Set when the article appeared under this number by renumbering another one. */
  renumberedFrom: string | null;
  versions: EuModelVersion[];
}

export interface EuModelVersion {
  /** The amending act (CELEX) that gave this wording; the act itself for the first one. */
  normId: string;
  publishedOn: string;
  inForceOn: string;
  html: string;
  text: string;
  hash: string;
  sourceUrl: string;
  fetchedAt: Date;
  payloadHash: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

export function htmlOfParagraphs(paragraphs: readonly string[]): string {
  return paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n");
}

/** The block kinds of the BOE vocabulary the law page and follows already know. */
const KIND: Record<string, string> = { heading: "encabezado", article: "precepto", annex: "anexo" };

/**
 * The act as law blocks with versions: one version per distinct wording, dated by the first
 * consolidated version that shows it, credited to the newest amending act whose marker sits in
 * the block and that the earlier version did not name (else to the act itself). An article
 * that disappears gets an empty wording from that date (repealed); an article renumbered keeps
 * its new number and records the old one.
 */
export function euLawModel(actCelex: string, versions: EuVersionInput[]): EuModelBlock[] {
  const sorted = [...versions].sort((a, b) => a.date.localeCompare(b.date));
  const blocks = new Map<string, EuModelBlock>();
  const order: string[] = [];
  let previous: EuVersionInput | null = null;
  for (const version of sorted) {
    const comparison = previous ? compareEuVersions(previous.text, version.text) : null;
    const renumbered = new Map(
      (comparison ?? []).filter((c) => c.status === "renumbered").map((c) => [c.after ?? "", c.before ?? ""]),
    );
    const present = new Set<string>();
    for (const block of version.text.blocks) {
      present.add(block.blockId);
      const text = block.kind === "heading" ? block.title : paragraphsOf(block.paragraphs).join("\n");
      const hash = createHash("sha256").update(text).digest("hex");
      let model = blocks.get(block.blockId);
      if (!model) {
        model = {
          blockId: block.blockId,
          kind: KIND[block.kind] ?? block.kind,
          title: block.title,
          position: 0,
          latestDate: version.date,
          expiresOn: null,
          renumberedFrom: renumbered.get(block.blockId) ?? null,
          versions: [],
        };
        blocks.set(block.blockId, model);
        order.push(block.blockId);
      }
      model.title = block.title;
      model.expiresOn = null;
      const last = model.versions[model.versions.length - 1];
      if (last && last.hash === hash) continue;
      const earlier = previous?.text.blocks.find((b) => b.blockId === block.blockId)?.amendedBy ?? [];
      const fresh = block.amendedBy.filter((celex) => !earlier.includes(celex) && celex !== actCelex);
      const norm = newestAct(fresh.length > 0 ? fresh : last ? block.amendedBy : [], version.text) ?? actCelex;
      model.versions.push({
        normId: norm,
        publishedOn: version.date,
        inForceOn: version.date,
        html: block.kind === "heading" ? htmlOfParagraphs([block.title]) : htmlOfParagraphs(block.paragraphs),
        text,
        hash,
        sourceUrl: version.provenance.url,
        fetchedAt: version.provenance.fetchedAt,
        payloadHash: version.provenance.sha256,
      });
      model.latestDate = version.date;
    }
    for (const model of blocks.values()) {
      if (present.has(model.blockId) || model.expiresOn) continue;
      // Gone from this version: repealed (or renumbered) from its date.
      model.expiresOn = version.date;
      model.latestDate = version.date;
    }
    order.splice(
      0,
      order.length,
      ...mergeOrder(
        order,
        version.text.blocks.map((b) => b.blockId),
      ),
    );
    previous = version;
  }
  return order.map((id, position) => ({ ...(blocks.get(id) as EuModelBlock), position }));
}

/**
 * Text order: the newer version's order; a block it no longer has stays right after the block
 * that preceded it before (a repealed article keeps its place in the table of contents).
 */
function mergeOrder(earlier: readonly string[], now: readonly string[]): string[] {
  const present = new Set(now);
  const out = [...now];
  let anchor: string | null = null;
  for (const id of earlier) {
    if (present.has(id)) {
      anchor = id;
      continue;
    }
    const at = anchor === null ? 0 : out.indexOf(anchor) + 1;
    out.splice(at, 0, id);
    anchor = id;
  }
  return out;
}

/** Of the CELEX numbers named, the act with the highest marker code (M4 after M3). */
function newestAct(celexes: readonly string[], text: EuConsolidatedText): string | null {
  let best: { celex: string; rank: number } | null = null;
  for (const celex of celexes) {
    const modifier = text.modifiers.find((m) => m.celex === celex);
    const rank = modifier ? Number(modifier.code.slice(1)) + (modifier.code.startsWith("M") ? 1000 : 0) : 0;
    if (!best || rank > best.rank) best = { celex, rank };
  }
  return best?.celex ?? null;
}
