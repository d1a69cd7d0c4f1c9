/**
 * Cellar payloads → records. `parseCellarMetadata` reads SPARQL-JSON results whose variables
 * are celex, eli, title, date, entryForce, endValidity, force, rtype, author (one binding per
 * combination of values: values repeat across bindings and are merged per CELEX), and the
 * act's subjects when the query asked for them: eurovoc and eurovocLabel (the concept and its
 * Spanish or English label), directory and directoryLabel (its directory codes; the recorded
 * results have none of these, so the parser does without them);
 * `parseCellarText` reads the XHTML rendition (OJ "oj-*" classes and the consolidated
 * "norm"/"title-*" classes) into paragraphs; `toEurlexDocument` joins them into a
 * SourceDocument. Pure; bad payloads throw SourceParseError only.
 */
import type { CodedLabel, Paragraph, Provenance, SourceDocument } from "../../documents/types.ts";
import { guardParse, SourceParseError } from "../errors.ts";
import { paragraphsFrom } from "../paragraphs.ts";
import {
  childrenOf,
  findFirst,
  isObj,
  isoDate,
  type Obj,
  type OrderedNode,
  orderedXmlParser,
  stripBom,
} from "../xml.ts";

export const CELLAR_METADATA_PARSER = "cellar-sparql@1";
export const CELLAR_TEXT_PARSER = "cellar-xhtml@1";

export interface EurlexMetadata {
  celex: string;
  eli?: string;
  /** Titles by language ("es", "en"); a title without a language tag counts as English. */
  titles: { es?: string; en?: string };
  /** YYYY-MM-DD of the act (cdm:work_date_document). */
  date?: string;
  /** Every entry-into-force date, sorted, unique. */
  entryForce: string[];
  endValidity?: string;
  /** null when the source does not say. */
  inForce: boolean | null;
  /** Resource type code, e.g. "REG", "DIR", "DEC_IMPL". */
  resourceType?: string;
  /** Authoring bodies, code = authority code (EP, CONSIL, COM). */
  authors: CodedLabel[];
  /** EuroVoc concepts, code = the concept's id (`http://eurovoc.europa.eu/5465` → "5465"). */
  eurovoc: CodedLabel[];
  /** Directory of EU legislation codes, code = the code's digits ("082020"). */
  directoryCodes: CodedLabel[];
}

const RESOURCE_TYPES: Record<string, string> = {
  REG: "Regulation",
  REG_IMPL: "Implementing regulation",
  REG_DEL: "Delegated regulation",
  DIR: "Directive",
  DIR_IMPL: "Implementing directive",
  DIR_DEL: "Delegated directive",
  DEC: "Decision",
  DEC_IMPL: "Implementing decision",
  DEC_DEL: "Delegated decision",
  RECO: "Recommendation",
};

const AUTHORS: Record<string, string> = {
  EP: "European Parliament",
  CONSIL: "Council of the European Union",
  COM: "European Commission",
  ECB: "European Central Bank",
};

const lastSegment = (uri: string) => uri.slice(uri.lastIndexOf("/") + 1);

/**
 * Adds a subject (EuroVoc concept or directory code) once; its label in Spanish when the
 * results give one, else in English, else its code.
 */
function addSubject(list: CodedLabel[], uri: string, label: { value: string; lang?: string } | undefined): void {
  const code = lastSegment(uri);
  if (!/^[0-9A-Za-z_.-]{1,40}$/.test(code)) return;
  let entry = list.find((s) => s.code === code);
  if (!entry) {
    entry = { code, label: code };
    list.push(entry);
  }
  if (!label?.value) return;
  const lang = (label.lang ?? "").toLowerCase().slice(0, 2);
  if (lang === "es" || (lang === "en" && entry.label === code)) entry.label = label.value;
}

function value(binding: Obj, name: string): { value: string; lang?: string } | undefined {
  const cell = binding[name];
  if (!isObj(cell) || typeof cell.value !== "string") return undefined;
  const lang = typeof cell["xml:lang"] === "string" ? cell["xml:lang"] : undefined;
  return lang ? { value: cell.value.trim(), lang } : { value: cell.value.trim() };
}

/** Parses SPARQL-JSON results into metadata per CELEX. Throws SourceParseError on bad JSON or shape. */
export function parseCellarMetadata(json: string): Map<string, EurlexMetadata> {
  const P = CELLAR_METADATA_PARSER;
  return guardParse(P, () => {
    let root: unknown;
    try {
      root = JSON.parse(stripBom(json));
    } catch (error) {
      throw new SourceParseError(P, `malformed JSON (${(error as Error).message.slice(0, 120)})`);
    }
    const results = isObj(root) ? root.results : undefined;
    if (!isObj(results) || !Array.isArray(results.bindings)) throw new SourceParseError(P, "no results.bindings");
    const out = new Map<string, EurlexMetadata>();
    for (const binding of results.bindings) {
      if (!isObj(binding)) continue;
      const celex = value(binding, "celex")?.value.toUpperCase();
      if (!celex || !/^[0-9CE][0-9A-Z()_-]{4,40}$/.test(celex)) continue;
      let meta = out.get(celex);
      if (!meta) {
        meta = { celex, titles: {}, entryForce: [], inForce: null, authors: [], eurovoc: [], directoryCodes: [] };
        out.set(celex, meta);
      }
      const eli = value(binding, "eli")?.value;
      if (eli && !meta.eli) meta.eli = eli;
      const title = value(binding, "title");
      if (title?.value) {
        const lang = (title.lang ?? "en").toLowerCase().slice(0, 2);
        if (lang === "es" && !meta.titles.es) meta.titles.es = title.value;
        else if (lang === "en" && !meta.titles.en) meta.titles.en = title.value;
      }
      const date = isoDate(value(binding, "date")?.value);
      if (date && !meta.date) meta.date = date;
      const entry = isoDate(value(binding, "entryForce")?.value);
      if (entry && !meta.entryForce.includes(entry)) meta.entryForce.push(entry);
      const end = isoDate(value(binding, "endValidity")?.value);
      if (end && !meta.endValidity) meta.endValidity = end;
      const force = value(binding, "force")?.value;
      if (force !== undefined && meta.inForce === null) meta.inForce = force === "1" || force === "true";
      const rtype = value(binding, "rtype")?.value;
      if (rtype && !meta.resourceType) meta.resourceType = lastSegment(rtype);
      const author = value(binding, "author")?.value;
      if (author) {
        const code = lastSegment(author);
        if (!meta.authors.some((a) => a.code === code)) meta.authors.push({ code, label: AUTHORS[code] ?? code });
      }
      const concept = value(binding, "eurovoc")?.value;
      if (concept) addSubject(meta.eurovoc, concept, value(binding, "eurovocLabel"));
      const directory = value(binding, "directory")?.value;
      if (directory) addSubject(meta.directoryCodes, directory, value(binding, "directoryLabel"));
    }
    for (const meta of out.values()) meta.entryForce.sort();
    return out;
  });
}

const HEADING =
  /(^|\s)(oj-doc-ti|oj-ti-art|oj-sti-art|oj-ti-section-\d|oj-ti-grseq-\d|oj-ti-tbl|title-article-norm|stitle-article-norm|title-division-\d|title-doc-first|title-doc-last|title-annex-\d|oj-ti-annotation)(\s|$)/;

/** Parses a Cellar XHTML rendition into paragraphs. Throws SourceParseError when unreadable. */
export function parseCellarText(xhtml: string): Paragraph[] {
  const P = CELLAR_TEXT_PARSER;
  return guardParse(P, () => {
    const text = stripBom(xhtml).trim();
    if (text === "") throw new SourceParseError(P, "empty payload");
    const ordered = orderedXmlParser.parse(text) as OrderedNode[];
    const body = findFirst(ordered, "body");
    if (!body) throw new SourceParseError(P, "no <body> element");
    const paragraphs = paragraphsFrom(childrenOf(body), {
      isHeading: (className) => HEADING.test(className),
      skip: (className) => /(^|\s)(oj-hd-\w+|oj-separator|oj-doc-sep|oj-doc-end)(\s|$)/.test(className),
      isListItem: (className) => /(^|\s)grid-container(\s|$)/.test(className),
      flattenLabelTables: true,
    });
    // The OJ page header (date | language | journal | page) is furniture, not text.
    return paragraphs.filter(
      (p) =>
        !(
          p.kind === "table" &&
          /\| (Official Journal of the European Union|Diario Oficial de la Unión Europea) \|/.test(p.text)
        ),
    );
  });
}

export interface EurlexDocumentOptions {
  /** Language of the text in `paragraphs` (Spanish preferred, English fallback). */
  textLanguage?: "es" | "en";
  /** OJ publication date when known (YYYY-MM-DD); defaults to the act's date. */
  publishedOn?: string;
}

/** Joins metadata and text into a SourceDocument. Throws SourceParseError when no title or date is known. */
export function toEurlexDocument(
  meta: EurlexMetadata,
  paragraphs: Paragraph[],
  provenance: Provenance[],
  options: EurlexDocumentOptions = {},
): SourceDocument {
  const title = meta.titles.es ?? meta.titles.en;
  if (!title) throw new SourceParseError(CELLAR_METADATA_PARSER, `act ${meta.celex} has no title`);
  const publishedOn = options.publishedOn ?? meta.date;
  if (!publishedOn) throw new SourceParseError(CELLAR_METADATA_PARSER, `act ${meta.celex} has no date`);
  const language = options.textLanguage ?? (meta.titles.es ? "es" : "en");
  const rank = meta.resourceType
    ? { code: meta.resourceType, label: RESOURCE_TYPES[meta.resourceType] ?? meta.resourceType }
    : undefined;
  const officialUrl = `https://eur-lex.europa.eu/legal-content/${language.toUpperCase()}/TXT/?uri=CELEX:${meta.celex}`;
  const department = meta.authors[0];
  return {
    source: "eurlex",
    sourceId: meta.celex,
    language,
    title,
    titles: { ...meta.titles },
    publishedOn,
    ...(meta.date ? { adoptedOn: meta.date } : {}),
    effectiveDates: [...meta.entryForce],
    officialUrl,
    links: {
      html: officialUrl,
      pdf: `https://eur-lex.europa.eu/legal-content/${language.toUpperCase()}/TXT/PDF/?uri=CELEX:${meta.celex}`,
      ...(meta.eli ? { eli: meta.eli } : {}),
    },
    ...(department ? { department } : {}),
    ...(rank ? { rank } : {}),
    subjects: [],
    alerts: [],
    eurovoc: meta.eurovoc.map((s) => ({ ...s })),
    directoryCodes: meta.directoryCodes.map((s) => ({ ...s })),
    notes: meta.authors.length > 1 ? [`Authors: ${meta.authors.map((a) => a.label).join(", ")}`] : [],
    relations: [],
    paragraphs: paragraphs.length > 0 ? paragraphs : [{ kind: "heading", text: title }],
    provenance,
  };
}

/** The CELEX numbers named in a text (a SPARQL query, a URL). */
export function celexNumbersIn(text: string): string[] {
  return [...new Set(text.match(/\b[0-9CE][0-9]{4}[A-Z]{1,2}[0-9]{4}[0-9A-Z()_-]*\b/g) ?? [])];
}
