/**
 * Article-level comparison of two consolidated versions of an EU act, and the law model built
 * from all of them. Articles are matched by number (`art_21a` with `art_21a`), never by
 * position; an article that only exists on one side is added or removed, unless its wording
 * is (nearly) that of an article that disappeared on the other side under another number: then
 * it was renumbered.
 */
import { createHash } from "node:crypto";
import { compareWordings, paragraphsOf, type WordDiff } from "../../law-texts/diff.ts";
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

// ---- the law model, one consolidated version at a time ----

export interface EuVersionInput {
  /** The consolidated CELEX (02014R0596-20240109). */
  celex: string;
  /** The version's date (YYYY-MM-DD): the consolidation applies from it. */
  date: string;
  text: EuConsolidatedText;
  provenance: { url: string; fetchedAt: Date; sha256: string };
}

/** What is already stored of a block: enough to tell a new wording and to keep the order. */
export interface EuStoredBlock {
  blockId: string;
  kind: string;
  title: string;
  position: number;
  latestDate: string;
  expiresOn: string | null;
  /** The latest wording's text and hash. */
  text: string;
  hash: string;
}

export interface EuNewVersion {
  blockId: string;
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

export interface EuApplied {
  /** Every block after this version, in text order (positions renumbered). */
  blocks: EuStoredBlock[];
  versions: EuNewVersion[];
  /** Blocks with a new wording, new blocks and blocks gone (repealed) in this version. */
  changed: string[];
  renumbered: Array<{ from: string; to: string }>;
  /** The modifiers (CELEX) this version lists: the next version's "already known" ones. */
  modifiers: string[];
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** Paragraphs as markup of our own (escaped text in <p>): nothing of the source's markup is kept. */
export function htmlOfParagraphs(paragraphs: readonly string[]): string {
  return paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n");
}

/** The block kinds of the BOE vocabulary the law page and follows already know. */
const KIND: Record<string, string> = { heading: "encabezado", article: "precepto", annex: "anexo" };

/**
 * Applies one consolidated version (newer than every stored one) to the stored blocks. A block
 * gets a version when its wording differs from its latest one, credited to the newest amending
 * act whose marker sits in the block and that earlier versions did not list (else the newest
 * marker in the block, else the act itself). A block missing from the version is repealed from
 * its date (`expiresOn`); a new article whose wording is that of one just gone was renumbered.
 */
export function applyEuVersion(
  actCelex: string,
  stored: readonly EuStoredBlock[],
  knownModifiers: readonly string[],
  version: EuVersionInput,
): EuApplied {
  const byId = new Map(stored.map((b) => [b.blockId, { ...b }]));
  const versions: EuNewVersion[] = [];
  const changed: string[] = [];
  const present = new Set(version.text.blocks.map((b) => b.blockId));
  // Renumbering: new article numbers against articles this version no longer has.
  const gone = stored.filter((b) => !present.has(b.blockId) && !b.expiresOn && b.kind === "precepto");
  const renumbered: Array<{ from: string; to: string }> = [];
  for (const block of version.text.blocks) {
    if (block.kind !== "article" || byId.has(block.blockId)) continue;
    const words = wordSet(block.paragraphs);
    let best: { from: string; score: number } | null = null;
    for (const old of gone) {
      if (renumbered.some((r) => r.from === old.blockId)) continue;
      const score = diceOf(words, wordSet(paragraphsOf(old.text)));
      if (score >= RENUMBERED_SIMILARITY && (!best || score > best.score)) best = { from: old.blockId, score };
    }
    if (best) renumbered.push({ from: best.from, to: block.blockId });
  }
  for (const block of version.text.blocks) {
    const text = block.kind === "heading" ? block.title : paragraphsOf(block.paragraphs).join("\n");
    const hash = createHash("sha256").update(text).digest("hex");
    const existing = byId.get(block.blockId);
    if (existing && existing.hash === hash && !existing.expiresOn) {
      existing.title = block.title;
      continue;
    }
    const fresh = block.amendedBy.filter((celex) => !knownModifiers.includes(celex) && celex !== actCelex);
    const named = block.amendedBy.filter((celex) => celex !== actCelex);
    const normId =
      newestAct(
        fresh.length > 0 ? fresh : existing || renumbered.some((r) => r.to === block.blockId) ? named : [],
        version.text,
      ) ?? actCelex;
    versions.push({
      blockId: block.blockId,
      normId,
      publishedOn: version.date,
      inForceOn: version.date,
      html: block.kind === "heading" ? htmlOfParagraphs([block.title]) : htmlOfParagraphs(block.paragraphs),
      text,
      hash,
      sourceUrl: version.provenance.url,
      fetchedAt: version.provenance.fetchedAt,
      payloadHash: version.provenance.sha256,
    });
    changed.push(block.blockId);
    byId.set(block.blockId, {
      blockId: block.blockId,
      kind: KIND[block.kind] ?? block.kind,
      title: block.title,
      position: existing?.position ?? 0,
      latestDate: version.date,
      expiresOn: null,
      text,
      hash,
    });
  }
  for (const block of byId.values()) {
    if (present.has(block.blockId) || block.expiresOn) continue;
    block.expiresOn = version.date;
    block.latestDate = version.date;
    changed.push(block.blockId);
  }
  const earlierOrder = [...stored].sort((a, b) => a.position - b.position).map((b) => b.blockId);
  const order = mergeOrder(
    earlierOrder,
    version.text.blocks.map((b) => b.blockId),
  );
  const blocks = order.map((id, position) => ({ ...(byId.get(id) as EuStoredBlock), position }));
  return { blocks, versions, changed, renumbered, modifiers: version.text.modifiers.map((m) => m.celex) };
}

/** Every version applied in date order (tests, and a first fetch of an act). */
export function euLawModel(
  actCelex: string,
  inputs: readonly EuVersionInput[],
): {
  blocks: EuStoredBlock[];
  versions: EuNewVersion[];
  renumbered: Array<{ from: string; to: string; date: string }>;
} {
  let blocks: EuStoredBlock[] = [];
  let modifiers: string[] = [];
  const versions: EuNewVersion[] = [];
  const renumbered: Array<{ from: string; to: string; date: string }> = [];
  for (const input of [...inputs].sort((a, b) => a.date.localeCompare(b.date))) {
    const applied = applyEuVersion(actCelex, blocks, modifiers, input);
    blocks = applied.blocks;
    modifiers = applied.modifiers;
    versions.push(...applied.versions);
    renumbered.push(...applied.renumbered.map((r) => ({ ...r, date: input.date })));
  }
  return { blocks, versions, renumbered };
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
