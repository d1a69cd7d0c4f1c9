/**
 * Generic XML helpers on one configured fast-xml-parser: the options every parser here shares,
 * the ordered parser for mixed content (paragraphs with inline markup) and accessors on its nodes,
 * with text extraction that never keeps markup. Used by the source parsers (sources/xml.ts adds
 * the BOE's shapes) and by the laws' text comparison.
 */
import { XMLParser } from "fast-xml-parser";

export type Obj = Record<string, unknown>;

/** The options every parser shares: attributes as plain keys, no value coercion, entities decoded, depth bounded. */
export const xmlParserOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: 200,
} as const;

/** Ordered nodes for mixed content (paragraph text with inline markup). */
export const orderedXmlParser = new XMLParser({
  ...xmlParserOptions,
  preserveOrder: true,
  textNodeName: "#text",
  trimValues: false,
});

export function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Collapses whitespace (including non-breaking spaces) to single spaces. */
export function clean(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}

// ---- ordered nodes (preserveOrder) ----

export type OrderedNode = Record<string, unknown>;

/** The tag name of an ordered node ("#text" for text). */
export function tagOf(node: OrderedNode): string {
  for (const key of Object.keys(node)) if (key !== ":@") return key;
  return "";
}

export function childrenOf(node: OrderedNode): OrderedNode[] {
  const tag = tagOf(node);
  const value = node[tag];
  return Array.isArray(value) ? (value.filter(isObj) as OrderedNode[]) : [];
}

export function attrsOf(node: OrderedNode): Obj {
  const attrs = node[":@"];
  return isObj(attrs) ? attrs : {};
}

/** The text of a node and its descendants, markup dropped, whitespace collapsed. */
export function textOf(nodes: OrderedNode[]): string {
  const parts: string[] = [];
  const walk = (items: OrderedNode[], depth: number) => {
    if (depth > 200) return;
    for (const node of items) {
      const tag = tagOf(node);
      if (tag === "#text") parts.push(String(node["#text"] ?? ""));
      else if (tag === "br") parts.push(" ");
      else {
        walk(childrenOf(node), depth + 1);
        if (/^(p|div|td|th|li|h\d)$/.test(tag)) parts.push(" ");
      }
    }
  };
  walk(nodes, 0);
  return clean(parts.join(""));
}

/** Depth-first search of the first element with the given local name. */
export function findFirst(nodes: OrderedNode[], name: string, depth = 0): OrderedNode | undefined {
  if (depth > 200) return undefined;
  for (const node of nodes) {
    const tag = tagOf(node);
    if (localName(tag) === name) return node;
    const found = findFirst(childrenOf(node), name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

export function localName(tag: string): string {
  const colon = tag.indexOf(":");
  return (colon >= 0 ? tag.slice(colon + 1) : tag).toLowerCase();
}
