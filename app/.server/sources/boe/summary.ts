/**
 * BOE daily summary (sumario) → BoeSummary. Pure: bytes in, typed record out; bad payloads
 * throw SourceParseError only. Accepts the JSON API's shape and the XML shape (turned into
 * the JSON shape by fast-xml-parser). Quirks handled (docs/sources.md): a byte-order
 * mark, a single child as an object, single children nested under `texto`, items straight
 * under a department (no epigraph), BORME's `apartado`, several `diario` in a day, an item
 * listed twice (kept once, reported in `duplicates`).
 */
import { guardParse, SourceParseError } from "../errors.ts";
import { boeXmlParser, isObj, isoDate, list, type Obj, opt, str, stripBom, xmlProblem } from "../xml.ts";

export const BOE_SUMMARY_PARSER = "boe-summary@1";

export interface BoeIssue {
  /** The issue number (`diario@numero`). */
  number: string;
  /** BOE-S-YYYY-N */
  summaryId?: string;
  summaryPdf?: string;
}

export interface BoeSummaryItem {
  /** BOE-A-…, BOE-B-… */
  sourceId: string;
  control?: string;
  title: string;
  /** "1", "2A", "2B", "3", "4", "5A", "5B", "T" */
  sectionCode: string;
  sectionName: string;
  department: { code: string; label: string };
  epigraph?: string;
  urls: { pdf?: string; html?: string; xml?: string };
  pages?: { first?: string; last?: string };
  issueNumber: string;
}

export interface BoeSummary {
  /** YYYY-MM-DD */
  date: string;
  publication: string;
  issues: BoeIssue[];
  /** Each item once, in summary order. */
  items: BoeSummaryItem[];
  /** Identifiers the summary listed more than once. */
  duplicates: string[];
}

const P = BOE_SUMMARY_PARSER;

/**
 * The children `key` of a node, whatever the wrapping: `node[key]` as object or array, or
 * `node.texto[key]` (single children nested under `texto`), and each child unwrapped when it
 * is itself `{texto: {...}}`.
 */
function children(node: unknown, key: string): Obj[] {
  if (!isObj(node)) return [];
  let value = node[key];
  if (value === undefined && isObj(node.texto)) value = node.texto[key];
  const out: Obj[] = [];
  for (const child of list(value)) {
    if (!isObj(child)) continue;
    const keys = Object.keys(child);
    if (keys.length === 1 && keys[0] === "texto" && (isObj(child.texto) || Array.isArray(child.texto))) {
      for (const inner of list(child.texto)) if (isObj(inner)) out.push(inner);
    } else out.push(child);
  }
  return out;
}

function decode(body: string, format: "json" | "xml"): unknown {
  const text = stripBom(body).trim();
  if (text === "") throw new SourceParseError(P, "empty payload");
  if (format === "json") {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new SourceParseError(P, `malformed JSON (${(error as Error).message.slice(0, 120)})`);
    }
  }
  const problem = xmlProblem(text);
  if (problem) throw new SourceParseError(P, `malformed XML: ${problem}`);
  return boeXmlParser.parse(text);
}

/** Parses a BOE summary payload. Throws SourceParseError when it is not one. */
export function parseBoeSummary(body: string, format: "json" | "xml"): BoeSummary {
  return guardParse(P, () => {
    const root = decode(body, format);
    const envelope = isObj(root) && isObj(root.response) ? root.response : root;
    const data = isObj(envelope) ? envelope.data : undefined;
    const sumario = isObj(data) ? data.sumario : undefined;
    if (!isObj(sumario)) {
      const status = isObj(envelope) && isObj(envelope.status) ? str(envelope.status.code) : "";
      throw new SourceParseError(
        P,
        status ? `no sumario in the payload (status ${status})` : "no sumario in the payload",
      );
    }
    const meta = isObj(sumario.metadatos) ? sumario.metadatos : {};
    const date = isoDate(meta.fecha_publicacion);
    if (!date) throw new SourceParseError(P, "missing or invalid metadatos.fecha_publicacion");

    const issues: BoeIssue[] = [];
    const items: BoeSummaryItem[] = [];
    const seen = new Set<string>();
    const duplicates = new Set<string>();

    for (const diario of children(sumario, "diario")) {
      const number = str(diario.numero);
      const sd = isObj(diario.sumario_diario) ? diario.sumario_diario : {};
      issues.push({
        number,
        ...optional("summaryId", opt(sd.identificador)),
        ...optional("summaryPdf", opt(sd.url_pdf)),
      });
      for (const seccion of children(diario, "seccion")) {
        const sectionCode = str(seccion.codigo);
        const sectionName = str(seccion.nombre);
        for (const dep of children(seccion, "departamento")) {
          const department = { code: str(dep.codigo), label: str(dep.nombre) };
          const add = (raw: Obj, epigraph: string | undefined) => {
            const sourceId = str(raw.identificador);
            if (!/^[A-Z]+-[A-Z0-9]+-\d{4}-[\d-]+$/.test(sourceId)) return;
            if (seen.has(sourceId)) {
              duplicates.add(sourceId);
              return;
            }
            seen.add(sourceId);
            const pdf = isObj(raw.url_pdf) ? raw.url_pdf : {};
            const first = opt(pdf.pagina_inicial);
            const last = opt(pdf.pagina_final);
            items.push({
              sourceId,
              ...optional("control", opt(raw.control)),
              title: str(raw.titulo),
              sectionCode,
              sectionName,
              department,
              ...optional("epigraph", epigraph),
              urls: {
                ...optional("pdf", opt(raw.url_pdf)),
                ...optional("html", opt(raw.url_html)),
                ...optional("xml", opt(raw.url_xml)),
              },
              ...(first || last ? { pages: { ...optional("first", first), ...optional("last", last) } } : {}),
              issueNumber: number,
            });
          };
          for (const raw of children(dep, "item")) add(raw, undefined);
          for (const group of [...children(dep, "epigrafe"), ...children(dep, "apartado")]) {
            const epigraph = opt(group.nombre);
            for (const raw of children(group, "item")) add(raw, epigraph);
          }
        }
      }
    }
    return { date, publication: str(meta.publicacion) || "BOE", issues, items, duplicates: [...duplicates] };
  });
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
