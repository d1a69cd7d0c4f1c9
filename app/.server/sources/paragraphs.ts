/**
 * Structured paragraphs from ordered (X)HTML nodes: headings, paragraphs and tables as plain
 * rows, in reading order, never keeping markup. Shared by the BOE document text and the
 * Cellar XHTML text.
 */
import type { Paragraph } from "../documents/types.ts";
import { attrsOf, childrenOf, clean, type OrderedNode, str, tagOf, textOf } from "./xml.ts";

export interface ParagraphOptions {
  /** True when a paragraph with this class (and tag) is a heading. */
  isHeading(className: string, tag: string): boolean;
  /** Paragraphs with these classes are dropped (page furniture). */
  skip?(className: string): boolean;
  /** Containers whose whole text is one list point (e.g. EUR-Lex "grid-container" label + text). */
  isListItem?(className: string, tag: string): boolean;
  /** Turn two-column tables whose first cell is a short label into "label text" paragraphs. */
  flattenLabelTables?: boolean;
}

const BLOCK_CONTAINERS = new Set([
  "div",
  "blockquote",
  "section",
  "article",
  "body",
  "main",
  "ul",
  "ol",
  "texto",
  "span",
  "center",
]);

export function paragraphsFrom(nodes: OrderedNode[], options: ParagraphOptions): Paragraph[] {
  const out: Paragraph[] = [];
  const push = (kind: Paragraph["kind"], text: string, style: string | undefined) => {
    const t = clean(text);
    if (t === "") return;
    out.push(style ? { kind, text: t, style } : { kind, text: t });
  };
  const walk = (items: OrderedNode[], depth: number) => {
    if (depth > 100) return;
    for (const node of items) {
      const tag = tagOf(node).toLowerCase();
      const className = str(attrsOf(node).class);
      if (tag === "#text") {
        push("paragraph", String(node["#text"] ?? ""), undefined);
        continue;
      }
      if (options.skip?.(className)) continue;
      if (tag === "table") {
        table(node, className);
        continue;
      }
      if (tag === "dl") {
        let term = "";
        for (const child of childrenOf(node)) {
          const childTag = tagOf(child).toLowerCase();
          if (childTag === "dt") term = textOf(childrenOf(child));
          else if (childTag === "dd") {
            push("paragraph", term ? `${term} ${textOf(childrenOf(child))}` : textOf(childrenOf(child)), "dl");
            term = "";
          }
        }
        if (term) push("paragraph", term, "dl");
        continue;
      }
      if (/^h[1-6]$/.test(tag)) {
        push("heading", textOf(childrenOf(node)), className || tag);
        continue;
      }
      if (tag === "p" || tag === "li" || tag === "dd" || tag === "dt") {
        push(
          options.isHeading(className, tag) ? "heading" : "paragraph",
          textOf(childrenOf(node)),
          className || undefined,
        );
        continue;
      }
      if (options.isListItem?.(className, tag)) {
        push("paragraph", textOf(childrenOf(node)), "point");
        continue;
      }
      if (BLOCK_CONTAINERS.has(tag)) {
        // A div holding only inline text is a paragraph of its own.
        const kids = childrenOf(node);
        const hasBlocks = kids.some((k) => /^(p|div|table|dl|h\d|ul|ol|li|blockquote)$/i.test(tagOf(k)));
        if (hasBlocks) walk(kids, depth + 1);
        else push(options.isHeading(className, tag) ? "heading" : "paragraph", textOf(kids), className || undefined);
        continue;
      }
      if (tag === "img" || tag === "col" || tag === "colgroup" || tag === "hr" || tag === "br") continue;
      // Anything else with text (inline elements at block level, unknown tags): keep the words.
      push("paragraph", textOf(childrenOf(node)), className || undefined);
    }
  };
  const rowsOf = (node: OrderedNode, depth = 0): string[][] => {
    const rows: string[][] = [];
    if (depth > 50) return rows;
    for (const child of childrenOf(node)) {
      const tag = tagOf(child).toLowerCase();
      if (tag === "tr") {
        const cells = childrenOf(child)
          .filter((c) => /^t[dh]$/i.test(tagOf(c)))
          .map((c) => textOf(childrenOf(c)));
        if (cells.some((c) => c !== "")) rows.push(cells);
      } else if (tag === "thead" || tag === "tbody" || tag === "tfoot") rows.push(...rowsOf(child, depth + 1));
    }
    return rows;
  };
  const table = (node: OrderedNode, className: string) => {
    const rows = rowsOf(node);
    if (rows.length === 0) return;
    if (options.flattenLabelTables && rows.every((r) => r.length === 2 && (r[0] ?? "").length <= 8)) {
      for (const [label, text] of rows) push("paragraph", `${label} ${text}`, "point");
      return;
    }
    push("table", rows.map((r) => r.join(" | ")).join("\n"), className || undefined);
  };
  walk(nodes, 0);
  return out;
}
