/**
 * Relevance by instrument and section (taxonomy.md, labelling rules): section I rules of
 * general application are high, section I acts that are not general are medium, section I
 * corrections are low; section III is medium when the act binds third parties or a sector
 * and low otherwise; sections II, IV and V are low. EU regulations and directives are high.
 */
import type { KindId, RelevanceId } from "../../lib/taxonomy.ts";
import type { SourceDocument } from "../documents/types.ts";
import { classificationHints } from "../sources/registry.ts";
import type { DocumentText } from "./document-text.ts";

export interface RelevanceResult {
  id: RelevanceId;
  reason: { es: string; en: string };
}

const generalKinds: ReadonlySet<KindId> = new Set([
  "constitution",
  "organic-law",
  "law",
  "decree-law",
  "legislative-decree",
  "royal-decree",
  "decree",
  "order",
  "circular",
  "instruction",
]);

/** Section I acts that are not rules of general application, by their title. */
const notGeneral = [
  /\bestatuto\b/,
  /estructura organica/,
  /concesion directa de (una |las |unas )?subvenc/,
  /concesion de un credito extraordinario/,
  /monedas de coleccion/,
];

/** Section III acts that bind third parties or a sector. */
const bindsSector = [
  /convenio colectivo/,
  /bases reguladoras/,
  /sistema de ayudas/,
  /se convoca[n]? (la concesion de )?(las |unas )?(ayudas|subvenciones|becas|premios)/,
  /requisito .*concurrir/,
  /contrato-tipo/,
  /\btarifa/,
  /\bpeajes\b/,
  /\bprecios\b/,
  /cuantia definitiva de los costes/,
  /\binstruccion\b/,
  /\bcircular\b/,
];

/**
 * Section III acts that set duties or limits on third parties: what they must do (minimum
 * services in a strike, quotas, requirements) or may not (limitations and conditions on an
 * activity). The taxonomy's "binds third parties", in the words such acts use; agreements
 * between public bodies stay low whatever their subject says.
 */
const setsDuties = [
  /servicios minimos/,
  /\bcuotas?\b/,
  /limitaciones (y condiciones )?(al|a la|para|en)\b/,
  /condiciones (al|para el) ejercicio/,
  /se (establecen|fijan|determinan) (los |las )?(requisitos|obligaciones|condiciones|normas|criterios)/,
];

/** A section III title that publishes an agreement between bodies (not a collective agreement). */
const publishesAgreement = /se publica(n)? (el|la|los|las) (convenio|adenda|acuerdo)(?! colectivo)/;

/** Section III departments that are sector supervisors: their acts bind the sector unless mere agreements. */
const supervisors = [/comision nacional de los mercados y la competencia/, /consejo de seguridad nuclear/];

const r = (id: RelevanceId, es: string, en: string): RelevanceResult => ({ id, reason: { es, en } });

export function relevanceOf(doc: SourceDocument, text: DocumentText, kind: KindId): RelevanceResult {
  // The source's hint first (EUR-Lex: by instrument, sources/eurlex/classification.ts).
  const hinted = classificationHints(doc.source).relevance?.(doc, text, kind);
  if (hinted) return hinted;
  const section = text.section;
  const title = text.foldedTitle;
  if (/^(2|4|5)/.test(section)) {
    return r(
      "low",
      `Sección BOE ${section}: nombramientos, justicia o anuncios`,
      `BOE section ${section}: appointments, justice or announcements`,
    );
  }
  if (section === "T") {
    if (/inconstitucionalidad/.test(title)) {
      return r(
        "medium",
        "Tribunal Constitucional: control de constitucionalidad de una norma",
        "Constitutional Court: review of a norm",
      );
    }
    return r("low", "Tribunal Constitucional: recurso de amparo", "Constitutional Court: individual appeal (amparo)");
  }
  if (section === "1") {
    if (kind === "correction") return r("low", "Sección I: corrección de errores", "Section I: correction");
    if (generalKinds.has(kind) && !notGeneral.some((re) => re.test(title))) {
      return r("high", "Sección I: norma de aplicación general", "Section I: rule of general application");
    }
    if (kind === "other" && /^enmiendas|^convenio|^acuerdo internacional|^protocolo|^canje de notas/.test(title)) {
      return r("high", "Sección I: tratado o acuerdo internacional", "Section I: international treaty");
    }
    return r("medium", "Sección I: acto que no es de aplicación general", "Section I: act not of general application");
  }
  if (section === "3") {
    const dept = text.foldedDepartment;
    if (supervisors.some((re) => re.test(dept)) && !/convenio/.test(title)) {
      return r(
        "medium",
        `Sección III: acto de un supervisor (${text.department})`,
        `Section III: act of a supervisor (${text.department})`,
      );
    }
    if (
      bindsSector.some((re) => re.test(title)) ||
      (!publishesAgreement.test(title) && setsDuties.some((re) => re.test(title)))
    ) {
      return r(
        "medium",
        "Sección III: obliga a terceros o a un sector",
        "Section III: binds third parties or a sector",
      );
    }
    return r("low", "Sección III: acto sin efectos para un sector", "Section III: act without effect on a sector");
  }
  return r("low", "Sin sección reconocida", "No recognised section");
}
