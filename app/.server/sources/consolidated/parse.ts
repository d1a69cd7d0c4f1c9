/**
 * Parsers of the BOE consolidated-legislation API (`/datosabiertos/api/legislacion-consolidada`):
 * metadatos (XML or JSON), the block index (XML or JSON), one block with all its versions, the
 * whole law (every block) and the change list. Every payload is checked to be well-formed XML first
 * (SourceParseError otherwise). A version's markup is kept as the source prints it (html) with its
 * plain text beside it (notes in `<blockquote>` left out, whitespace normalised) and the text's
 * sha256: a wording corrected in place keeps its norm and dates but not its hash.
 */
import { createHash } from "node:crypto";
import { calendarDateOf } from "../../../lib/calendar-date.ts";
import { SourceParseError } from "../errors.ts";
import { boeXmlParser, isObj, isoDate, list, type Obj, str, stripBom, xmlProblem } from "../xml.ts";

export const BOE_CONSOLIDATED_PARSER = "boe-consolidated@1";

export interface ParsedMetadata {
  id: string;
  title: string;
  eli: string | null;
  /** fecha_actualizacion as an ISO timestamp (2026-01-02T10:52:16Z). */
  updatedAt: string | null;
  /** Every metadatos field, codes kept (rango: { codigo, texto }). */
  fields: Record<string, unknown>;
}

export interface ParsedIndexEntry {
  blockId: string;
  title: string;
  /** The date of the block's latest version, YYYY-MM-DD. */
  date: string;
}

export interface ParsedVersion {
  normId: string;
  publishedOn: string;
  inForceOn: string | null;
  html: string;
  text: string;
  hash: string;
}

export interface ParsedBlock {
  blockId: string;
  kind: string;
  title: string;
  expiresOn: string | null;
  /** In the source's order (not always chronological: sort with law-texts/model.ts versionsOf). */
  versions: ParsedVersion[];
}

export interface ParsedChange {
  id: string;
  updatedAt: string | null;
  /** What the law catalogue keeps of each listed law (the list items are its metadatos). */
  title: string;
  number: string | null;
  rank: string | null;
  /** fecha_disposicion, YYYY-MM-DD. */
  datedOn: string | null;
  /** Repealed (estatus_derogacion S) or spent (vigencia_agotada S). */
  repealed: boolean;
  eli: string | null;
}

const fail = (message: string): never => {
  throw new SourceParseError(BOE_CONSOLIDATED_PARSER, message);
};

function wellFormed(body: string): string {
  const text = stripBom(body);
  const problem = xmlProblem(text);
  if (problem) fail(`not well-formed XML: ${problem}`);
  return text;
}

function parseJson(body: string): Obj {
  try {
    const value = JSON.parse(stripBom(body)) as unknown;
    if (!isObj(value)) return fail("JSON answer is not an object");
    return value;
  } catch (error) {
    if (error instanceof SourceParseError) throw error;
    return fail(`malformed JSON: ${(error as Error).message}`);
  }
}

/** 20260102T105216Z → 2026-01-02T10:52:16Z */
export function isoTimestamp(value: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value.trim());
  if (!m) return isoDate(value) ? `${isoDate(value)}T00:00:00Z` : null;
  const day = calendarDateOf(m[1] as string, m[2] as string, m[3] as string);
  return day ? `${day}T${m[4]}:${m[5]}:${m[6]}Z` : null;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The plain text of a version's markup: notes (blockquote) out, tags as spaces, whitespace normalised. */
export function versionText(html: string): string {
  const withoutNotes = html.replace(/<blockquote\b[\s\S]*?<\/blockquote>/g, " ");
  // Block-level tags separate words; inline ones (b, i, sup, a…) do not.
  const spaced = withoutNotes.replace(
    /<\/?(?:p|div|td|th|tr|li|br|h\d|table|tbody|thead|tfoot|ul|ol|img|caption)\b[^>]*>/gi,
    " ",
  );
  return decodeEntities(spaced.replace(/<[^>]+>/g, ""))
    .replace(/[\s\u00a0]+/g, " ")
    .trim();
}

export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

function metadataFrom(node: Obj): ParsedMetadata {
  const id = str(node.identificador);
  if (!/^BOE-[A-Z]-\d{4}-\d+$/.test(id)) fail(`metadatos without a BOE identifier (${id || "none"})`);
  const updated = str(node.fecha_actualizacion);
  return {
    id,
    title: str(node.titulo),
    eli: str(node.url_eli) || null,
    updatedAt: updated ? isoTimestamp(updated) : null,
    fields: node,
  };
}

/** `…/id/{ID}/metadatos` (XML or JSON), or the metadatos inside the whole law. */
export function parseMetadatos(body: string, format: "xml" | "json" = "xml"): ParsedMetadata {
  if (format === "json") {
    const data = list(parseJson(body).data)[0];
    if (!isObj(data)) return fail("metadatos JSON without data");
    return metadataFrom(data);
  }
  const tree = boeXmlParser.parse(wellFormed(body)) as Obj;
  const data = isObj(tree.response) ? tree.response.data : undefined;
  const node = isObj(data) ? data.metadatos : undefined;
  if (!isObj(node)) return fail("answer without metadatos");
  return metadataFrom(node);
}

/** `…/id/{ID}/texto/indice` (XML or JSON): the blocks in text order with their latest dates. */
export function parseIndex(body: string, format: "xml" | "json" = "xml"): ParsedIndexEntry[] {
  let blocks: unknown[];
  if (format === "json") {
    const data = list(parseJson(body).data)[0];
    blocks = isObj(data) ? list(data.bloque) : [];
  } else {
    const tree = boeXmlParser.parse(wellFormed(body)) as Obj;
    const data = isObj(tree.response) ? tree.response.data : undefined;
    blocks = isObj(data) ? list(data.bloque) : [];
  }
  const out: ParsedIndexEntry[] = [];
  for (const node of blocks) {
    if (!isObj(node)) continue;
    const blockId = str(node.id);
    const date = isoDate(node.fecha_actualizacion);
    if (!blockId) fail("index block without id");
    if (!date) fail(`index block ${blockId} without a date`);
    out.push({ blockId, title: str(node.titulo).replace(/[\s\u00a0]+/g, " "), date: date as string });
  }
  if (out.length === 0) fail("index without blocks");
  return out;
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) out[m[1] as string] = decodeEntities(m[2] as string);
  return out;
}

/** Markup without the payload's indentation (a block answer is indented two spaces less than the whole law). */
function dedent(html: string): string {
  return html.replace(/\n[ \t]+/g, "\n");
}

const BLOCK_RE = /<bloque\b([^>]*)>([\s\S]*?)<\/bloque>/g;
const VERSION_RE = /<version\b([^>]*)>([\s\S]*?)<\/version>|<version\b([^>]*)\/>/g;

function blockFrom(attrs: string, inner: string): ParsedBlock {
  const a = attributes(attrs);
  const blockId = a.id ?? "";
  if (!blockId) fail("block without id");
  const versions: ParsedVersion[] = [];
  for (const m of inner.matchAll(VERSION_RE)) {
    const v = attributes(m[1] ?? m[3] ?? "");
    const normId = v.id_norma ?? "";
    const publishedOn = isoDate(v.fecha_publicacion);
    if (!normId || !publishedOn) fail(`block ${blockId}: version without norm or publication date`);
    const html = dedent((m[2] ?? "").replace(/^\s+|\s+$/g, ""));
    const text = versionText(html);
    versions.push({
      normId,
      publishedOn: publishedOn as string,
      inForceOn: isoDate(v.fecha_vigencia) ?? null,
      html,
      text,
      hash: sha256(text),
    });
  }
  if (versions.length === 0) fail(`block ${blockId} without versions`);
  return {
    blockId,
    kind: a.tipo ?? "",
    title: (a.titulo ?? "").replace(/[\s\u00a0]+/g, " ").trim(),
    expiresOn: isoDate(a.fecha_caducidad) ?? null,
    versions,
  };
}

/** `…/id/{ID}/texto/bloque/{BLOQUE}`: one block with every version. */
export function parseBlock(body: string): ParsedBlock {
  const text = wellFormed(body);
  const blocks = [...text.matchAll(BLOCK_RE)];
  if (blocks.length !== 1) fail(`block answer with ${blocks.length} blocks`);
  const m = blocks[0] as RegExpMatchArray;
  return blockFrom(m[1] ?? "", m[2] ?? "");
}

/** `…/id/{ID}`: the whole law (metadatos and every block, in text order). */
export function parseWholeLaw(body: string): { metadata: ParsedMetadata; blocks: ParsedBlock[] } {
  const text = wellFormed(body);
  const textStart = text.indexOf("<texto");
  const head = textStart >= 0 ? text.slice(0, textStart) : text;
  const metadatos = /<metadatos>[\s\S]*?<\/metadatos>/.exec(head)?.[0];
  if (!metadatos) fail("law without metadatos");
  const metadata = parseMetadatos(`<response><data>${metadatos}</data></response>`);
  const blocks =
    textStart >= 0 ? [...text.slice(textStart).matchAll(BLOCK_RE)].map((m) => blockFrom(m[1] ?? "", m[2] ?? "")) : [];
  return { metadata, blocks };
}

/** The change list (`?from=&to=&offset=&limit=`), XML or JSON: each law with its fecha_actualizacion. */
export function parseChangeList(body: string, format: "xml" | "json"): ParsedChange[] {
  let items: unknown[];
  if (format === "json") {
    items = list(parseJson(body).data);
  } else {
    const tree = boeXmlParser.parse(wellFormed(body)) as Obj;
    const data = isObj(tree.response) ? tree.response.data : undefined;
    items = isObj(data) ? list(data.item) : [];
  }
  const out: ParsedChange[] = [];
  for (const item of items) {
    if (!isObj(item)) continue;
    const node = isObj(item.metadatos) ? item.metadatos : item;
    const id = str(node.identificador);
    if (!id) continue;
    const updated = str(node.fecha_actualizacion);
    out.push({
      id,
      updatedAt: updated ? isoTimestamp(updated) : null,
      title: decodeEntities(str(node.titulo))
        .replace(/[\s\u00a0]+/g, " ")
        .trim(),
      number: str(node.numero_oficial) || null,
      rank: str(node.rango) || null,
      datedOn: isoDate(node.fecha_disposicion) ?? null,
      repealed: str(node.estatus_derogacion) === "S" || str(node.vigencia_agotada) === "S",
      eli: str(node.url_eli) || null,
    });
  }
  return out;
}
