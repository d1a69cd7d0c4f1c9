/**
 * The labelled set (fixtures/classify/labelled.jsonl, tracked; its path is defined in
 * fixtures-path.ts): documents of the recorded sources with labels decided by reading them
 * (docs/classification.md), and the loader that parses each one from the fixtures with the
 * sources' own parsers, as ingestion would. Articles of the consolidated laws and of the EU
 * acts are entries too (`unit: "article"`), labelled with their areas only.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  type AreaId,
  isAreaId,
  isJurisdictionId,
  isKindId,
  isRelevanceId,
  type JurisdictionId,
  type KindId,
  type RelevanceId,
} from "../../lib/taxonomy.ts";
import type { SourceDocument } from "../documents/types.ts";
import { labelledSetPath, projectRoot, sourcesFixturesDir } from "../fixtures-path.ts";
import { parseBoeDocument } from "../sources/boe/document.ts";
import { type BoeSummaryItem, parseBoeSummary } from "../sources/boe/summary.ts";
import { parseCellarMetadata, parseCellarText, toEurlexDocument } from "../sources/eurlex/cellar.ts";
import { loadArticle } from "./articles.ts";

export interface LabelledEntry {
  sourceId: string;
  source: "boe" | "eurlex";
  /** The BOE day whose summary lists the document (YYYYMMDD), when it is in one. */
  day?: string;
  /** The document's payload, relative to the fixtures root. */
  fixture: string;
  /** An article of a consolidated law or of an EU act: areas only are labelled. */
  unit?: "article";
  areas: AreaId[];
  /** Absent on articles (the law's own labels are the whole document's). */
  jurisdiction?: JurisdictionId;
  kind?: KindId;
  relevance?: RelevanceId;
  split: "train" | "heldout";
  note?: string;
}

export { labelledSetPath, projectRoot };
/** The recorded sources (fixtures/sources, or FIXTURES_DIR's). */
export const fixturesRoot = sourcesFixturesDir;

export function readLabelledSet(file = labelledSetPath): LabelledEntry[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const entries: LabelledEntry[] = [];
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    const where = `${path.basename(file)}:${index + 1}`;
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`${where}: not valid JSON`);
    }
    const areas = raw.areas;
    const article = raw.unit === "article";
    const documentLabels = article
      ? raw.jurisdiction === undefined && raw.kind === undefined && raw.relevance === undefined
      : typeof raw.jurisdiction === "string" &&
        isJurisdictionId(raw.jurisdiction) &&
        typeof raw.kind === "string" &&
        isKindId(raw.kind) &&
        typeof raw.relevance === "string" &&
        isRelevanceId(raw.relevance);
    if (
      (raw.unit !== undefined && !article) ||
      !documentLabels ||
      typeof raw.sourceId !== "string" ||
      (raw.source !== "boe" && raw.source !== "eurlex") ||
      typeof raw.fixture !== "string" ||
      !Array.isArray(areas) ||
      areas.length === 0 ||
      !areas.every((a) => typeof a === "string" && isAreaId(a)) ||
      (raw.split !== "train" && raw.split !== "heldout")
    ) {
      throw new Error(`${where}: not a valid labelled entry`);
    }
    entries.push(raw as unknown as LabelledEntry);
  });
  return entries;
}

const summaries = new Map<string, Map<string, BoeSummaryItem>>();

function summaryItem(root: string, day: string, sourceId: string): BoeSummaryItem | undefined {
  let items = summaries.get(day);
  if (!items) {
    const body = readFileSync(path.join(root, `boe/datosabiertos/api/boe/sumario/${day}.json`), "utf8");
    items = new Map(parseBoeSummary(body, "json").items.map((item) => [item.sourceId, item]));
    summaries.set(day, items);
  }
  return items.get(sourceId);
}

const xmlText = (xml: string, tag: string) =>
  xml.match(new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`))?.[1]?.trim() ?? "";

/**
 * Workaround: parseBoeDocument (boe-document@1), given a document without its summary
 * item, leaves out the department and the section number (`<seccion>` and `<departamento>`
 * come back as lists, so a "5"+"A" section reads "A"); read them from the metadata here
 * until the parser is fixed.
 */
export function withBoeMetadata(doc: SourceDocument, xml: string): SourceDocument {
  const out = { ...doc };
  if (!out.section || !/^[1-5T]/.test(out.section)) {
    const section = (xmlText(xml, "seccion") + xmlText(xml, "subseccion")).toUpperCase();
    if (section) out.section = section;
  }
  if (!out.department) {
    const m = xml.match(/<departamento codigo="([^"]*)">([^<]*)<\/departamento>/);
    if (m?.[2]) out.department = { code: m[1] ?? "", label: m[2].trim() };
  }
  return out;
}

/** Parses the entry's document from the recorded payloads with the sources' parsers. */
export function loadDocument(entry: LabelledEntry, root = fixturesRoot): SourceDocument {
  if (entry.unit === "article") return loadArticle(entry.sourceId, entry.fixture, root);
  if (entry.source === "boe") {
    const xml = readFileSync(path.join(root, entry.fixture), "utf8");
    const item = entry.day ? summaryItem(root, entry.day, entry.sourceId) : undefined;
    return withBoeMetadata(parseBoeDocument(xml, item), xml);
  }
  const metadata = parseCellarMetadata(readFileSync(path.join(root, `cellar/sparql/${entry.sourceId}.json`), "utf8"));
  const meta = metadata.get(entry.sourceId);
  if (!meta) throw new Error(`${entry.sourceId}: no metadata in the recorded SPARQL results`);
  const paragraphs = parseCellarText(readFileSync(path.join(root, entry.fixture), "utf8"));
  return toEurlexDocument(meta, paragraphs, [], { textLanguage: "en" });
}

/** Every document of the recorded sources (all BOE items of the recorded days, the EUR-Lex acts). */
export function* allRecordedDocuments(root = fixturesRoot): Generator<SourceDocument> {
  const days = ["20181206", "20240102", "20250307", "20260407", "20260408", "20260929", "20261001"];
  const seen = new Set<string>();
  for (const day of days) {
    const body = readFileSync(path.join(root, `boe/datosabiertos/api/boe/sumario/${day}.json`), "utf8");
    for (const item of parseBoeSummary(body, "json").items) {
      seen.add(item.sourceId);
      const xml = readFileSync(path.join(root, `boe/diario_boe/xml.php/${item.sourceId}.xml`), "utf8");
      yield parseBoeDocument(xml, item);
    }
  }
  for (const entry of readLabelledSet()) {
    if (seen.has(entry.sourceId)) continue;
    seen.add(entry.sourceId);
    yield loadDocument(entry, root);
  }
}
