/**
 * Shared helpers of the source parsers: one configured fast-xml-parser, tolerant accessors
 * for the "object or array" shapes of the sources, and text extraction from ordered XML
 * (preserveOrder) that never keeps markup.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";

export type Json = unknown;
export type Obj = Record<string, unknown>;

/** The elements that may repeat in BOE payloads: always arrays after parsing. */
const BOE_ARRAYS = new Set([
  "diario",
  "seccion",
  "departamento",
  "epigrafe",
  "apartado",
  "item",
  "materia",
  "alerta",
  "nota",
  "anterior",
  "posterior",
]);

const common = {
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

/** Parses BOE XML into the JSON API's shape (attributes as keys, text as `texto`). */
export const boeXmlParser = new XMLParser({
  ...common,
  textNodeName: "texto",
  isArray: (name) => BOE_ARRAYS.has(name),
});

/** BOE document XML: same arrays, text as `#text` (documents have a `<texto>` element). */
export const boeDocumentXmlParser = new XMLParser({
  ...common,
  textNodeName: "#text",
  isArray: (name) => BOE_ARRAYS.has(name),
});

/** A plain object tree (attributes as keys, text as `#text`). */
export const plainXmlParser = new XMLParser({ ...common, textNodeName: "#text" });

/** Ordered nodes for mixed content (paragraph text with inline markup). */
export const orderedXmlParser = new XMLParser({
  ...common,
  preserveOrder: true,
  textNodeName: "#text",
  trimValues: false,
});

/** True when the text is well-formed XML; otherwise a short reason. */
export function xmlProblem(text: string): string | undefined {
  const result = XMLValidator.validate(text);
  if (result === true) return undefined;
  return `${result.err.msg} (line ${result.err.line})`;
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value as a list: undefined → [], object → [object], array → array. */
export function list(value: unknown): unknown[] {
  if (value === undefined || value === null || value === "") return [];
  return Array.isArray(value) ? value : [value];
}

/** A scalar as a trimmed string ("" when absent); `{texto}` objects give their text. */
export function str(value: unknown, textKey = "texto"): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (isObj(value)) {
    const inner = value[textKey];
    if (typeof inner === "string" || typeof inner === "number") return String(inner).trim();
  }
  return "";
}

/** `str` or undefined when empty. */
export function opt(value: unknown, textKey = "texto"): string | undefined {
  const text = str(value, textKey);
  return text === "" ? undefined : text;
}

/** YYYYMMDD (or YYYY-MM-DD…) → YYYY-MM-DD, undefined when not a plausible date. */
export function isoDate(value: unknown): string | undefined {
  const text = str(value);
  const match = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(text);
  if (!match) return undefined;
  const [, y, m, d] = match;
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return `${y}-${m}-${d}`;
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
