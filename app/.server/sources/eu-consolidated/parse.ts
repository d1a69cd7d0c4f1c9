/**
 * Parses one consolidated version of an EU act (Cellar XHTML) into blocks: headings (chapters,
 * sections, titles), articles and annexes, each with its paragraphs as plain text.
 *
 * Two layouts exist. Newer versions wrap each article in `<div class="eli-subdivision"
 * id="art_N">`; older ones only have a `<p class="title-article-norm">Article N</p>` heading
 * followed by its paragraphs. Both are read the same way: a heading opens a block, the next
 * heading (or the end of an eli-subdivision) closes it; the `art_N` id, when present, names
 * the article. Articles are identified by their NUMBER (`art_21a`), never their position.
 *
 * Amendment markers (`▼M4`, `►M2 … ◄`) are not text: they are recorded per block as the
 * amending acts' CELEX numbers and left out of the wording. Footnote calls (`(9)`) are left out
 * too: their numbering shifts between versions without any change of wording.
 */

import { calendarDateOf } from "../../../lib/calendar-date.ts";
import { SourceParseError } from "../errors.ts";
import { attrsOf, childrenOf, findFirst, type OrderedNode, orderedXmlParser, stripBom, tagOf, textOf } from "../xml.ts";

export const EU_CONSOLIDATED_PARSER = "cellar-consolidated@1";

export type EuBlockKind = "heading" | "article" | "annex";

export interface EuBlock {
  /** `art_21a`, `cpt_III`, `cpt_III.sct_2`, `anx_I`. */
  blockId: string;
  kind: EuBlockKind;
  /** "Article 21a", "CHAPTER III — GENERAL PROVISIONS", "ANNEX I". */
  title: string;
  /** The article's or annex's number ("21a", "I"); null for headings. */
  number: string | null;
  paragraphs: string[];
  /** CELEX numbers of the acts whose markers (▼M…, ►M…) sit in or just before the block. */
  amendedBy: string[];
}

export interface EuModifier {
  /** "M1", "A1", "C2"… */
  code: string;
  celex: string;
  title: string;
}

export interface EuConsolidatedText {
  /** The act's CELEX number (32014R0596) and the version's date (YYYY-MM-DD), from `<title>`. */
  actCelex: string | null;
  date: string | null;
  /** "eli": articles marked with eli-subdivision ids; "headings": headings only. */
  layout: "eli" | "headings";
  /** The act's title lines. */
  title: string;
  modifiers: EuModifier[];
  blocks: EuBlock[];
}

const ARTICLE_HEADING = /^Article\s+(\d+[a-z]*)\b/i;
const ANNEX_HEADING = /^ANNEX\b\s*([IVXLC]+|\d+)?/i;
const DIVISION = /^(PART|TITLE|CHAPTER|SECTION|SUB-?SECTION)\s+([\w]+)/i;
const DIVISION_PREFIX: Record<string, string> = {
  PART: "prt",
  TITLE: "tit",
  CHAPTER: "cpt",
  SECTION: "sct",
  SUBSECTION: "sbs",
  "SUB-SECTION": "sbs",
};
const DIVISION_LEVEL: Record<string, number> = { prt: 1, tit: 2, cpt: 3, sct: 4, sbs: 5 };
const FINAL_FORMULA = /^This (Regulation|Directive|Decision) shall be binding in its entirety\b/i;
const MARKER = /[►▼]\s*(?:[MACB]\d*)?|◄/g;
const CELEX_OF_LINK = /celex\/([0-9CE][0-9A-Z()_-]+)/i;

function classOf(node: OrderedNode): string {
  return String(attrsOf(node).class ?? "");
}

function hasClass(node: OrderedNode, name: string): boolean {
  return classOf(node).split(/\s+/).includes(name);
}

/** Text of a paragraph: markers and footnote calls removed, whitespace collapsed. */
function cleanText(text: string): string {
  return text
    .replace(MARKER, " ")
    .replace(/\(\s*\)/g, " ")
    .replace(/[\s\u00a0]+/g, " ")
    .replace(/\s+([.,;:])/g, "$1")
    .trim();
}

/** The node without footnote calls (`<a href="#E0009">`) and amendment-marker links. */
function textWithoutNotes(nodes: OrderedNode[]): string {
  const keep = (items: OrderedNode[]): OrderedNode[] =>
    items
      .filter((node) => {
        if (tagOf(node) !== "a") return true;
        const href = String(attrsOf(node).href ?? "");
        return !href.startsWith("#");
      })
      .map((node) => {
        const tag = tagOf(node);
        if (tag === "#text") return node;
        return { ...node, [tag]: keep(childrenOf(node)) };
      });
  return cleanText(textOf(keep(nodes)));
}

/** CELEX numbers linked from amendment markers inside the nodes. */
function markerCelex(nodes: OrderedNode[], out: string[], depth = 0): void {
  if (depth > 200) return;
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === "#text") continue;
    if (tag === "a") {
      const text = textOf(childrenOf(node));
      const celex = CELEX_OF_LINK.exec(String(attrsOf(node).href ?? ""))?.[1];
      if (celex && /^[►▼]/.test(text) && !out.includes(celex)) out.push(celex);
    }
    markerCelex(childrenOf(node), out, depth + 1);
  }
}

interface Walker {
  blocks: EuBlock[];
  current: EuBlock | null;
  /** Label waiting for its paragraph ("1. ", "(a) "). */
  label: string;
  /** Markers met and not yet placed: they announce the next paragraph or block. */
  pendingMarkers: string[];
  /** Headings in force: level → id part (cpt_III, sct_2). */
  divisions: Array<{ level: number; id: string }>;
  /** A division heading's second line (title-division-2) goes into its title. */
  lastHeading: EuBlock | null;
  layout: "eli" | "headings";
  inEliArticle: boolean;
  seen: Set<string>;
}

function uniqueId(w: Walker, id: string): string {
  let candidate = id;
  for (let n = 2; w.seen.has(candidate); n++) candidate = `${id}~${n}`;
  w.seen.add(candidate);
  return candidate;
}

function open(w: Walker, block: Omit<EuBlock, "paragraphs" | "amendedBy">): EuBlock {
  const full: EuBlock = { ...block, blockId: uniqueId(w, block.blockId), paragraphs: [], amendedBy: [] };
  for (const celex of w.pendingMarkers) if (!full.amendedBy.includes(celex)) full.amendedBy.push(celex);
  w.pendingMarkers = [];
  w.blocks.push(full);
  w.current = full;
  w.label = "";
  return full;
}

function addParagraph(w: Walker, text: string): void {
  if (!w.current || w.current.kind === "heading") {
    w.label = "";
    return;
  }
  const value = cleanText(`${w.label} ${text}`);
  w.label = "";
  if (!value) return;
  w.current.paragraphs.push(value);
  for (const celex of w.pendingMarkers) if (!w.current.amendedBy.includes(celex)) w.current.amendedBy.push(celex);
  w.pendingMarkers = [];
}

function headingFrom(w: Walker, text: string): boolean {
  const division = DIVISION.exec(text);
  if (!division) return false;
  const prefix = DIVISION_PREFIX[division[1]!.toUpperCase().replace("-", "")] ?? "div";
  const level = DIVISION_LEVEL[prefix] ?? 6;
  w.divisions = w.divisions.filter((d) => d.level < level);
  w.divisions.push({ level, id: `${prefix}_${division[2]}` });
  const block = open(w, {
    blockId: w.divisions.map((d) => d.id).join("."),
    kind: "heading",
    title: text,
    number: null,
  });
  w.lastHeading = block;
  return true;
}

function walk(w: Walker, nodes: OrderedNode[], depth: number): void {
  if (depth > 200) return;
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === "#text") {
      // Loose text beside blocks (rare): part of the current paragraph flow.
      const text = cleanText(String(node["#text"] ?? ""));
      if (text && !/^[►▼◄—\s]*$/.test(text)) addParagraph(w, text);
      continue;
    }
    if (tag === "hr" || tag === "br" || tag === "col" || tag === "img") continue;
    const children = childrenOf(node);
    const id = String(attrsOf(node).id ?? "");
    if (hasClass(node, "modref") || hasClass(node, "arrow")) {
      // A marker stands before what it marks: it goes to the next paragraph's block.
      markerCelex(children, w.pendingMarkers);
      continue;
    }
    if (/^fnp_/.test(id)) {
      // The final part (the binding-force formula) belongs to no article.
      w.current = null;
      continue;
    }
    if (hasClass(node, "eli-subdivision") && /^art_\d+[a-z]*$/i.test(id)) {
      w.layout = "eli";
      const number = id.slice(4);
      open(w, { blockId: `art_${number}`, kind: "article", title: `Article ${number}`, number });
      // Inside the subdivision its id names the article: the heading in it opens nothing.
      w.inEliArticle = true;
      walk(w, children, depth + 1);
      w.inEliArticle = false;
      w.current = null;
      continue;
    }
    if (hasClass(node, "title-article-norm")) {
      const text = textWithoutNotes(children);
      const number = ARTICLE_HEADING.exec(text)?.[1];
      if (number && !w.inEliArticle) {
        open(w, { blockId: `art_${number}`, kind: "article", title: `Article ${number}`, number });
      }
      continue;
    }
    if (hasClass(node, "stitle-article-norm")) {
      addParagraph(w, textWithoutNotes(children));
      continue;
    }
    if (hasClass(node, "title-annex-1")) {
      const text = textWithoutNotes(children);
      const number = ANNEX_HEADING.exec(text)?.[1] ?? String(w.blocks.filter((b) => b.kind === "annex").length + 1);
      w.divisions = [];
      open(w, { blockId: `anx_${number}`, kind: "annex", title: text, number });
      continue;
    }
    if (/(^|\s)title-division-1(\s|$)/.test(classOf(node))) {
      const text = textWithoutNotes(children);
      if (!headingFrom(w, text)) w.current = null;
      continue;
    }
    if (/(^|\s)title-division-2(\s|$)/.test(classOf(node))) {
      const text = textWithoutNotes(children);
      if (w.lastHeading && w.current === w.lastHeading && text) w.lastHeading.title += ` — ${text}`;
      continue;
    }
    if (
      /(^|\s)(title-doc-first|title-doc-last|title-doc-oj-reference|reference|disclaimer|hd-modifiers)(\s|$)/.test(
        classOf(node),
      )
    ) {
      continue;
    }
    if (hasClass(node, "footnote") || hasClass(node, "separator") || hasClass(node, "separator-annex")) continue;
    if (hasClass(node, "no-parag") || hasClass(node, "grid-list-column-1")) {
      w.label = `${w.label} ${textWithoutNotes(children)}`.trim();
      continue;
    }
    if (tag === "p" || tag === "td" || tag === "th") {
      if (containsBlock(children)) walk(w, children, depth + 1);
      else {
        const text = textWithoutNotes(children);
        // The older layout has no final-part wrapper: its formula ends the last article.
        if (FINAL_FORMULA.test(text)) w.current = null;
        else addParagraph(w, text);
      }
      continue;
    }
    if (tag === "div" && hasClass(node, "inline-element") && !containsBlock(children)) {
      addParagraph(w, textWithoutNotes(children));
      continue;
    }
    if (tag === "table" && w.current === null) {
      // The front matter's tables (title, amending acts) hold no article text.
      continue;
    }
    walk(w, children, depth + 1);
  }
}

const BLOCK_TAGS = new Set(["p", "div", "table", "tr", "td", "ul", "ol", "li", "dl"]);

function containsBlock(nodes: OrderedNode[]): boolean {
  return nodes.some((node) => BLOCK_TAGS.has(tagOf(node)));
}

function modifiersOf(body: OrderedNode[]): EuModifier[] {
  const out: EuModifier[] = [];
  const visit = (nodes: OrderedNode[], depth: number) => {
    if (depth > 60) return;
    for (const node of nodes) {
      if (tagOf(node) === "tr") {
        const cells = childrenOf(node).filter((c) => tagOf(c) === "td");
        const marker = cells[0] ? textOf([cells[0]]) : "";
        const code = /^►\s*([MACB]\d+)$/.exec(marker)?.[1];
        const link = cells[0] ? findFirst([cells[0]], "a") : undefined;
        const celex = link ? CELEX_OF_LINK.exec(String(attrsOf(link).href ?? ""))?.[1] : undefined;
        if (code && celex && !out.some((m) => m.code === code)) {
          out.push({ code, celex, title: cells[1] ? cleanText(textOf([cells[1]])) : "" });
        }
        continue;
      }
      visit(childrenOf(node), depth + 1);
    }
  };
  visit(body, 0);
  return out;
}

/** Parses a consolidated version's XHTML. Throws SourceParseError when it is not one. */
export function parseEuConsolidated(xhtml: string): EuConsolidatedText {
  const P = EU_CONSOLIDATED_PARSER;
  const text = stripBom(xhtml).trim();
  if (text === "") throw new SourceParseError(P, "empty payload");
  let ordered: OrderedNode[];
  try {
    ordered = orderedXmlParser.parse(text) as OrderedNode[];
  } catch (error) {
    throw new SourceParseError(P, `not XHTML: ${(error as Error).message}`);
  }
  const body = findFirst(ordered, "body");
  if (!body) throw new SourceParseError(P, "no <body> element");
  const titleNode = findFirst(ordered, "title");
  const pageTitle = titleNode ? textOf(childrenOf(titleNode)) : "";
  // "Consolidated TEXT: 32014R0596 — EN — 09.01.2024"
  const heading = /([0-9CE]\d{4}[A-Z]{1,2}\d{4})\s+—\s+[A-Z]{2}\s+—\s+(\d{2})\.(\d{2})\.(\d{4})/.exec(pageTitle);
  const w: Walker = {
    blocks: [],
    current: null,
    label: "",
    pendingMarkers: [],
    divisions: [],
    lastHeading: null,
    layout: "headings",
    inEliArticle: false,
    seen: new Set(),
  };
  const children = childrenOf(body);
  walk(w, children, 0);
  const titleLines: string[] = [];
  const collectTitle = (nodes: OrderedNode[], depth: number) => {
    if (depth > 60) return;
    for (const node of nodes) {
      if (/(^|\s)(title-doc-first|title-doc-last)(\s|$)/.test(classOf(node))) {
        const line = cleanText(textOf(childrenOf(node)));
        if (line && !titleLines.includes(line)) titleLines.push(line);
      } else collectTitle(childrenOf(node), depth + 1);
    }
  };
  collectTitle(children, 0);
  const blocks = w.blocks.filter((b) => b.kind === "heading" || b.paragraphs.length > 0 || b.kind === "article");
  if (!blocks.some((b) => b.kind === "article")) throw new SourceParseError(P, "no article found");
  return {
    actCelex: heading?.[1] ?? null,
    date: heading ? (calendarDateOf(heading[4] as string, heading[3] as string, heading[2] as string) ?? null) : null,
    layout: w.layout,
    title: titleLines.join(" "),
    modifiers: modifiersOf(children),
    blocks,
  };
}

/** `0` + the act's number without its sector digit + `-` + the date: 32014R0596, 2024-01-09 → 02014R0596-20240109. */
export function consolidatedCelex(actCelex: string, date: string): string {
  return `0${actCelex.slice(1)}-${date.replaceAll("-", "")}`;
}

/** The act's CELEX and the date of a consolidated CELEX (02014R0596-20240109), or null. */
export function splitConsolidatedCelex(celex: string): { actCelex: string; date: string } | null {
  const m = /^0(\d{4}[A-Z]{1,2}\d{4})-(\d{4})(\d{2})(\d{2})$/.exec(celex);
  const date = m ? calendarDateOf(m[2] as string, m[3] as string, m[4] as string) : undefined;
  return m && date ? { actCelex: `3${m[1]}`, date } : null;
}
