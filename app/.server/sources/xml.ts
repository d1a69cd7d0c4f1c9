/**
 * Shared helpers of the source parsers: the BOE's parsers (its repeating elements), tolerant
 * accessors for the "object or array" shapes of the sources, and the generic helpers of
 * ../xml/ordered.ts (ordered nodes, text without markup) re-exported.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { isObj, xmlParserOptions } from "../xml/ordered.ts";

export {
  attrsOf,
  childrenOf,
  clean,
  findFirst,
  isObj,
  localName,
  type Obj,
  type OrderedNode,
  orderedXmlParser,
  tagOf,
  textOf,
} from "../xml/ordered.ts";

import { calendarDateOf } from "../../lib/calendar-date.ts";

export type Json = unknown;

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

/** Parses BOE XML into the JSON API's shape (attributes as keys, text as `texto`). */
export const boeXmlParser = new XMLParser({
  ...xmlParserOptions,
  textNodeName: "texto",
  isArray: (name) => BOE_ARRAYS.has(name),
});

/** BOE document XML: same arrays, text as `#text` (documents have a `<texto>` element). */
export const boeDocumentXmlParser = new XMLParser({
  ...xmlParserOptions,
  textNodeName: "#text",
  isArray: (name) => BOE_ARRAYS.has(name),
});

/** A plain object tree (attributes as keys, text as `#text`). */
export const plainXmlParser = new XMLParser({ ...xmlParserOptions, textNodeName: "#text" });

/** True when the text is well-formed XML; otherwise a short reason. */
export function xmlProblem(text: string): string | undefined {
  const result = XMLValidator.validate(text);
  if (result === true) return undefined;
  return `${result.err.msg} (line ${result.err.line})`;
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
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

/** YYYYMMDD (or YYYY-MM-DD…) → YYYY-MM-DD, undefined when not a day that exists. */
export function isoDate(value: unknown): string | undefined {
  const text = str(value);
  const match = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(text);
  if (!match) return undefined;
  const [, y, m, d] = match;
  return calendarDateOf(y as string, m as string, d as string);
}
