/**
 * BOE document XML (`/diario_boe/xml.php?id=…`) → SourceDocument. Pure; bad payloads throw
 * SourceParseError only. Reads metadatos, analisis (materias, alertas, notas, referencias
 * anteriores/posteriores with their palabra codes) and the text as structured paragraphs
 * (no HTML kept; tables as plain rows). Synthesized documents (empty analysis, title as the
 * only paragraph) parse the same way. The summary item, when given, fills what the document
 * lacks (section code with subsection, epigraph, URLs).
 */
import type { CodedLabel, Paragraph, SourceDocument, SourceRelation } from "../../documents/types.ts";
import { guardParse, SourceParseError } from "../errors.ts";
import { paragraphsFrom } from "../paragraphs.ts";
import {
  boeDocumentXmlParser,
  childrenOf,
  findFirst,
  isObj,
  isoDate,
  list,
  type Obj,
  type OrderedNode,
  opt as optAny,
  orderedXmlParser,
  str as strAny,
  stripBom,
  tagOf,
  xmlProblem,
} from "../xml.ts";
import type { BoeSummaryItem } from "./summary.ts";

const str = (value: unknown): string => strAny(value, "#text");
const opt = (value: unknown): string | undefined => optAny(value, "#text");

export const BOE_DOCUMENT_PARSER = "boe-document@1";
const P = BOE_DOCUMENT_PARSER;
const BOE = "https://www.boe.es";

/** BOE relation verbs (palabra@codigo) → normalised relation types. */
const RELATION_TYPES: Record<string, string> = {
  "210": "repeals",
  "211": "repeals",
  "270": "modifies",
  "280": "modifies",
  "330": "cites",
  "331": "related",
  "440": "in-accordance-with",
  "231": "suspends",
  "426": "transposes",
  "235": "removes",
  "201": "corrects",
  "203": "corrects",
  "480": "declares-in-force",
  "407": "adds",
  "490": "develops",
  "470": "applies",
};

function relationType(code: string, verb: string): string {
  const known = RELATION_TYPES[code];
  if (known) return known;
  const v = verb.toUpperCase();
  if (v.startsWith("DEROGA")) return "repeals";
  if (v.startsWith("MODIFICA")) return "modifies";
  if (v.startsWith("AÑADE")) return "adds";
  if (v.startsWith("SUPRIME")) return "removes";
  if (v.startsWith("CORRECCI")) return "corrects";
  if (v.startsWith("CITA")) return "cites";
  if (v.startsWith("TRANSPONE")) return "transposes";
  if (v.startsWith("SE DEROGA")) return "repealed-by";
  if (v.startsWith("SE MODIFICA") || v.startsWith("SE AÑADE")) return "modified-by";
  return "related";
}

const HEADING_CLASSES =
  /^(articulo|capitulo.*|titulo.*|seccion|subseccion|anexo.*|centro_negrita|libro.*|parte.*|disp.*_tit|disposicion.*)$/;

function absolute(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (/^https?:\/\//.test(url)) return url;
  if (url.startsWith("/")) return BOE + url;
  return undefined;
}

function coded(node: unknown): CodedLabel | undefined {
  const label = str(node);
  const code = isObj(node) ? str(node.codigo) : "";
  if (!label && !code) return undefined;
  return { code, label };
}

function codedList(container: unknown, key: string): CodedLabel[] {
  if (!isObj(container)) return [];
  const out: CodedLabel[] = [];
  for (const node of list(container[key])) {
    const c = coded(node);
    if (c?.label) out.push(c);
  }
  return out;
}

function relations(refs: unknown): SourceRelation[] {
  if (!isObj(refs)) return [];
  const out: SourceRelation[] = [];
  const read = (group: unknown, key: string, direction: "earlier" | "later") => {
    if (!isObj(group)) return;
    for (const node of list(group[key])) {
      if (!isObj(node)) continue;
      const targetSourceId = str(node.referencia);
      if (!targetSourceId) continue;
      const palabra = node.palabra;
      const code = isObj(palabra) ? str(palabra.codigo) : "";
      const verb = str(palabra);
      const text = str(node.texto);
      let type = relationType(code, verb);
      if (direction === "later" && !type.endsWith("-by")) type = `${type}-by`;
      out.push({
        type,
        ...(code ? { code } : {}),
        targetSourceId,
        label: [verb, text].filter(Boolean).join(" "),
        direction,
      });
    }
  };
  read(refs.anteriores, "anterior", "earlier");
  read(refs.posteriores, "posterior", "later");
  return out;
}

function textParagraphs(xml: string): Paragraph[] {
  const ordered = orderedXmlParser.parse(xml) as OrderedNode[];
  // The document's own <texto> (a direct child of <documento>; relations have <texto> too).
  const documento = findFirst(ordered, "documento");
  const texto = documento ? childrenOf(documento).find((n) => tagOf(n) === "texto") : undefined;
  if (!texto) return [];
  return paragraphsFrom(childrenOf(texto), {
    isHeading: (className) => HEADING_CLASSES.test(className),
  });
}

/** Parses a BOE document XML. Throws SourceParseError when it is not one. */
export function parseBoeDocument(xml: string, item?: BoeSummaryItem): SourceDocument {
  return guardParse(P, () => {
    const text = stripBom(xml).trim();
    if (text === "") throw new SourceParseError(P, "empty payload");
    const problem = xmlProblem(text);
    if (problem) throw new SourceParseError(P, `malformed XML: ${problem}`);
    const root = boeDocumentXmlParser.parse(text) as Obj;
    const documento = root.documento;
    if (!isObj(documento)) throw new SourceParseError(P, "no <documento> element");
    const meta = isObj(documento.metadatos) ? documento.metadatos : undefined;
    if (!meta) throw new SourceParseError(P, "no <metadatos> element");
    const sourceId = str(meta.identificador) || item?.sourceId || "";
    if (!/^[A-Z]+-[A-Z0-9]+-\d{4}-[\d-]+$/.test(sourceId))
      throw new SourceParseError(P, `missing or invalid identificador "${sourceId.slice(0, 40)}"`);
    if (item && item.sourceId !== sourceId)
      throw new SourceParseError(P, `document ${sourceId} does not match summary item ${item.sourceId}`);
    const title = str(meta.titulo) || item?.title || "";
    if (!title) throw new SourceParseError(P, `document ${sourceId} has no title`);
    const publishedOn = isoDate(meta.fecha_publicacion);
    if (!publishedOn) throw new SourceParseError(P, `document ${sourceId} has no valid fecha_publicacion`);

    const analisis = isObj(documento.analisis) ? documento.analisis : {};
    const section = item?.sectionCode || (str(meta.seccion) + str(meta.subseccion)).toUpperCase() || undefined;
    const department = coded(meta.departamento) ?? item?.department;
    const rank = coded(meta.rango);
    const origin = coded(meta.origen_legislativo);
    const effective = isoDate(meta.fecha_vigencia);
    const adoptedOn = isoDate(meta.fecha_disposicion);
    const links = {
      ...optionalLink("pdf", absolute(opt(meta.url_pdf)) ?? item?.urls.pdf),
      html: item?.urls.html ?? `${BOE}/diario_boe/txt.php?id=${sourceId}`,
      xml: item?.urls.xml ?? `${BOE}/diario_boe/xml.php?id=${sourceId}`,
      ...optionalLink("eli", absolute(opt(meta.url_eli))),
    };
    let paragraphs = textParagraphs(text);
    if (paragraphs.length === 0) paragraphs = [{ kind: "paragraph", text: title }];
    const notes = list(isObj(analisis.notas) ? analisis.notas.nota : undefined)
      .map((n) => str(n))
      .filter(Boolean);
    const observaciones = opt(analisis.observaciones);
    if (observaciones) notes.push(observaciones);

    const doc: SourceDocument = {
      source: "boe",
      sourceId,
      language: "es",
      title,
      titles: { es: title },
      publishedOn,
      ...(adoptedOn ? { adoptedOn } : {}),
      effectiveDates: effective ? [effective] : [],
      officialUrl: links.html,
      links,
      ...(section ? { section } : {}),
      ...(department ? { department } : {}),
      ...(item?.epigraph ? { epigraph: item.epigraph } : {}),
      ...(rank?.label ? { rank } : {}),
      ...(origin?.label ? { origin } : {}),
      subjects: codedList(analisis.materias, "materia"),
      alerts: codedList(analisis.alertas, "alerta"),
      eurovoc: [],
      directoryCodes: [],
      notes,
      relations: relations(analisis.referencias),
      paragraphs,
      provenance: [],
    };
    return doc;
  });
}

function optionalLink<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
