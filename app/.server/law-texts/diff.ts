/**
 * Word-level comparison of two wordings of a law's block (an article, a heading, an annex).
 *
 * Paragraphs first, then words: the two texts are split into paragraphs, identical paragraphs
 * are aligned (jsdiff's diffArrays), the paragraphs between two aligned ones are paired by
 * similarity (in order), and each pair is compared word by word (jsdiff's diffWordsWithSpace).
 * So the output keeps the paragraph structure: one row per paragraph, usable inline (the row's
 * `inline` segments) and side by side (`left` and `right`, null where a paragraph only exists
 * on one side).
 */
import { diffArrays, diffWordsWithSpace } from "diff";
import { childrenOf, type OrderedNode, orderedXmlParser, tagOf, textOf } from "../xml/ordered.ts";

export type SegmentKind = "same" | "ins" | "del";

export interface DiffSegment {
  kind: SegmentKind;
  text: string;
}

export type RowKind = "same" | "changed" | "added" | "removed";

export interface DiffRow {
  kind: RowKind;
  /** The earlier wording's paragraph (same and deleted words); null when the paragraph was added. */
  left: DiffSegment[] | null;
  /** The later wording's paragraph (same and inserted words); null when the paragraph was removed. */
  right: DiffSegment[] | null;
  /** Both in one paragraph: deletions then insertions where words changed. */
  inline: DiffSegment[];
}

export interface WordDiff {
  rows: DiffRow[];
  identical: boolean;
  insertedWords: number;
  deletedWords: number;
  changedParagraphs: number;
}

/** Paragraphs of a block's text: non-empty lines, inner whitespace collapsed. */
export function paragraphsOf(text: string | readonly string[]): string[] {
  const lines = typeof text === "string" ? text.split(/\r?\n/) : text;
  const out: string[] = [];
  for (const line of lines) {
    const clean = line.replace(/\s+/g, " ").trim();
    if (clean) out.push(clean);
  }
  return out;
}

const PARAGRAPH_TAGS = new Set(["p", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6"]);

/**
 * Paragraphs of a version's markup: each `<p>` (a table row, a list item) one paragraph, the
 * notes (`<blockquote>`: "Se modifica por…") left out, as in the version's plain text.
 */
export function paragraphsOfHtml(html: string): string[] {
  let nodes: OrderedNode[];
  try {
    nodes = orderedXmlParser.parse(`<root>${html}</root>`) as OrderedNode[];
  } catch {
    return paragraphsOf(html.replace(/<[^>]*>/g, "\n"));
  }
  const out: string[] = [];
  const walk = (items: OrderedNode[], depth: number) => {
    if (depth > 100) return;
    for (const node of items) {
      const tag = tagOf(node);
      if (tag === "blockquote" || tag === "#text") continue;
      if (PARAGRAPH_TAGS.has(tag)) {
        const text =
          tag === "tr"
            ? childrenOf(node)
                .map((cell) => textOf([cell]))
                .join(" | ")
            : textOf([node]);
        if (text) out.push(text);
        continue;
      }
      walk(childrenOf(node), depth + 1);
    }
  };
  walk(nodes, 0);
  return paragraphsOf(out);
}

/** A stored version's paragraphs: from its markup when it has paragraphs, else its text's lines. */
export function paragraphsOfVersion(version: { html: string; text: string }): string[] {
  const fromHtml = /<(p|tr|li)\b/.test(version.html) ? paragraphsOfHtml(version.html) : [];
  return fromHtml.length > 0 ? fromHtml : paragraphsOf(version.text);
}

const WORD = /[\p{L}\p{N}]+/gu;

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

/** Dice coefficient over the two paragraphs' word sets: 0 (nothing shared) to 1. */
function similarity(a: string, b: string): number {
  const wa = new Set(wordsOf(a));
  const wb = new Set(wordsOf(b));
  if (wa.size === 0 && wb.size === 0) return 1;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return (2 * shared) / (wa.size + wb.size);
}

/** Below this, two paragraphs are shown as one removed and one added rather than as one changed. */
const PAIR_THRESHOLD = 0.35;

/**
 * Pairs removed with added paragraphs in order (a monotone alignment maximising the summed
 * similarity of the pairs); unpaired ones stay removed or added. Runs are short (the
 * paragraphs between two identical ones), so the quadratic table is small.
 */
function alignRun(removed: string[], added: string[]): Array<[string | null, string | null]> {
  const n = removed.length;
  const m = added.length;
  if (n === 0) return added.map((p) => [null, p]);
  if (m === 0) return removed.map((p) => [p, null]);
  if (n * m > 40_000) {
    // A huge rewrite: in order, one for one, then the rest alone.
    const out: Array<[string | null, string | null]> = [];
    for (let i = 0; i < Math.max(n, m); i++) out.push([removed[i] ?? null, added[i] ?? null]);
    return out;
  }
  const sim: number[][] = removed.map((r) => added.map((a) => similarity(r, a)));
  const best: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const s = sim[i]![j]!;
      const pair = s >= PAIR_THRESHOLD ? s + best[i + 1]![j + 1]! : -1;
      best[i]![j] = Math.max(pair, best[i + 1]![j]!, best[i]![j + 1]!);
    }
  }
  const out: Array<[string | null, string | null]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const s = sim[i]![j]!;
    if (s >= PAIR_THRESHOLD && best[i]![j] === s + best[i + 1]![j + 1]!) {
      out.push([removed[i]!, added[j]!]);
      i++;
      j++;
    } else if (best[i]![j] === best[i + 1]![j]) {
      out.push([removed[i]!, null]);
      i++;
    } else {
      out.push([null, added[j]!]);
      j++;
    }
  }
  while (i < n) out.push([removed[i++]!, null]);
  while (j < m) out.push([null, added[j++]!]);
  return out;
}

/** Adjacent segments of one kind merged (jsdiff may split a run). */
function pushSegment(list: DiffSegment[], kind: SegmentKind, text: string): void {
  if (!text) return;
  const last = list[list.length - 1];
  if (last && last.kind === kind) last.text += text;
  else list.push({ kind, text });
}

/** Caps the word comparison of one paragraph pair (ms); past it the pair is shown as replaced. */
const PAIR_TIMEOUT_MS = 250;

function changedRow(before: string, after: string): { row: DiffRow; inserted: number; deleted: number } {
  const changes = diffWordsWithSpace(before, after, { timeout: PAIR_TIMEOUT_MS });
  if (!changes) return replacedRow(before, after);
  const left: DiffSegment[] = [];
  const right: DiffSegment[] = [];
  const inline: DiffSegment[] = [];
  let inserted = 0;
  let deleted = 0;
  for (const change of changes) {
    if (change.added) {
      pushSegment(right, "ins", change.value);
      pushSegment(inline, "ins", change.value);
      inserted += countWords(change.value);
    } else if (change.removed) {
      pushSegment(left, "del", change.value);
      pushSegment(inline, "del", change.value);
      deleted += countWords(change.value);
    } else {
      pushSegment(left, "same", change.value);
      pushSegment(right, "same", change.value);
      pushSegment(inline, "same", change.value);
    }
  }
  return { row: { kind: "changed", left, right, inline }, inserted, deleted };
}

function replacedRow(before: string, after: string): { row: DiffRow; inserted: number; deleted: number } {
  return {
    row: {
      kind: "changed",
      left: [{ kind: "del", text: before }],
      right: [{ kind: "ins", text: after }],
      inline: [
        { kind: "del", text: before },
        { kind: "same", text: " " },
        { kind: "ins", text: after },
      ],
    },
    inserted: countWords(after),
    deleted: countWords(before),
  };
}

/**
 * Compares two wordings. Each may be a text (paragraphs separated by line breaks) or a list of
 * paragraphs; whitespace inside a paragraph is not a change.
 */
export function compareWordings(before: string | readonly string[], after: string | readonly string[]): WordDiff {
  const a = paragraphsOf(before);
  const b = paragraphsOf(after);
  const rows: DiffRow[] = [];
  let insertedWords = 0;
  let deletedWords = 0;
  let changedParagraphs = 0;
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    for (const [left, right] of alignRun(removed, added)) {
      changedParagraphs++;
      if (left !== null && right !== null) {
        const { row, inserted, deleted } = changedRow(left, right);
        rows.push(row);
        insertedWords += inserted;
        deletedWords += deleted;
      } else if (left !== null) {
        rows.push({
          kind: "removed",
          left: [{ kind: "del", text: left }],
          right: null,
          inline: [{ kind: "del", text: left }],
        });
        deletedWords += countWords(left);
      } else if (right !== null) {
        rows.push({
          kind: "added",
          left: null,
          right: [{ kind: "ins", text: right }],
          inline: [{ kind: "ins", text: right }],
        });
        insertedWords += countWords(right);
      }
    }
    removed = [];
    added = [];
  };
  for (const part of diffArrays(a, b)) {
    if (part.removed) removed.push(...part.value);
    else if (part.added) added.push(...part.value);
    else {
      flush();
      for (const p of part.value) {
        const same: DiffSegment[] = [{ kind: "same", text: p }];
        rows.push({ kind: "same", left: same, right: same, inline: same });
      }
    }
  }
  flush();
  return { rows, identical: changedParagraphs === 0, insertedWords, deletedWords, changedParagraphs };
}
