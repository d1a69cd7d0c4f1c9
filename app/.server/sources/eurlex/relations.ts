/**
 * What an EU act does to earlier acts, from Cellar (issue 39): the acts it amends, repeals or
 * corrects (`cdm:resource_legal_amends_resource_legal`, `…_repeals_…`, `…_corrects_…`), asked for
 * in a SPARQL query of their own (clients.ts cellarRelations) and stored as the document's relations
 * to earlier norms, as the BOE's analysis is (`direction: "earlier"`, code "amends", "repeals" or
 * "corrects"). Pure; a bad payload throws SourceParseError only.
 */
import type { SourceRelation } from "../../documents/types.ts";
import { guardParse, SourceParseError } from "../errors.ts";
import { isObj, stripBom } from "../xml.ts";

export const CELLAR_RELATIONS_PARSER = "cellar-relations@1";

/** Cellar's relation names (the query's `?relation` values) and the relation types they are stored as. */
export const EU_RELATIONS = {
  amends: "modifies",
  repeals: "repeals",
  corrects: "corrects",
} as const;
export type EuRelation = keyof typeof EU_RELATIONS;

export interface EuAmendment {
  relation: EuRelation;
  /** The earlier act's CELEX number (sector 3: legislation). */
  target: string;
}

/** The query: one row per (act, relation, earlier act); CELEX numbers in VALUES, typed (see docs/sources.md). */
export function cellarRelationsQuery(values: string): string {
  return `PREFIX cdm: <http://publications.europa.eu/ontology/cdm#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
SELECT DISTINCT ?celex ?relation ?target WHERE {
  VALUES ?celex { ${values} }
  ?work cdm:resource_legal_id_celex ?celex .
  { ?work cdm:resource_legal_amends_resource_legal ?earlier . BIND("amends" AS ?relation) }
  UNION { ?work cdm:resource_legal_repeals_resource_legal ?earlier . BIND("repeals" AS ?relation) }
  UNION { ?work cdm:resource_legal_corrects_resource_legal ?earlier . BIND("corrects" AS ?relation) }
  ?earlier cdm:resource_legal_id_celex ?target .
}`;
}

const ACT = /^3\d{4}[A-Z]{1,2}\d{4}$/;

const cell = (binding: Record<string, unknown>, name: string): string => {
  const value = binding[name];
  return isObj(value) && typeof value.value === "string" ? value.value.trim().toUpperCase() : "";
};

/**
 * SPARQL-JSON results to each act's amendments, in the answer's order, once each. Rows without the
 * three variables (an answer to another query) give nothing; targets that are not acts (consolidated
 * versions, corrigenda numbers) are left out.
 */
export function parseCellarRelations(json: string): Map<string, EuAmendment[]> {
  const P = CELLAR_RELATIONS_PARSER;
  return guardParse(P, () => {
    let root: unknown;
    try {
      root = JSON.parse(stripBom(json));
    } catch (error) {
      throw new SourceParseError(P, `malformed JSON (${(error as Error).message.slice(0, 120)})`);
    }
    const results = isObj(root) ? root.results : undefined;
    if (!isObj(results) || !Array.isArray(results.bindings)) throw new SourceParseError(P, "no results.bindings");
    const out = new Map<string, EuAmendment[]>();
    for (const binding of results.bindings) {
      if (!isObj(binding)) continue;
      const celex = cell(binding, "celex");
      const relation = cell(binding, "relation").toLowerCase();
      const target = cell(binding, "target");
      if (!ACT.test(celex) || !ACT.test(target) || target === celex || !(relation in EU_RELATIONS)) continue;
      const list = out.get(celex) ?? [];
      if (!list.some((a) => a.relation === relation && a.target === target))
        list.push({ relation: relation as EuRelation, target });
      out.set(celex, list);
    }
    return out;
  });
}

const KINDS: Record<string, { es: string; en: string }> = {
  R: { es: "Reglamento", en: "Regulation" },
  L: { es: "Directiva", en: "Directive" },
  D: { es: "Decisión", en: "Decision" },
};

/**
 * How an act is cited, from its CELEX number, in Spanish and English: "Reglamento (UE) 2016/679" /
 * "Regulation (EU) 2016/679", "Reglamento (UE) n.º 596/2014" / "Regulation (EU) No 596/2014",
 * "Directiva 95/46/CE" / "Directive 95/46/EC". Before 2010 regulations are (CE)/(EC); other kinds
 * are named by their CELEX number.
 */
export function euActCitation(celex: string): { es: string; en: string } {
  const m = /^3(\d{4})([A-Z]{1,2})(\d{4})$/.exec(celex);
  const kind = m ? KINDS[m[2] as string] : undefined;
  if (!m || !kind) return { es: `CELEX ${celex}`, en: `CELEX ${celex}` };
  const year = Number(m[1]);
  const number = String(Number(m[3]));
  const eu = year >= 2010;
  if (year >= 2015) return { es: `${kind.es} (UE) ${year}/${number}`, en: `${kind.en} (EU) ${year}/${number}` };
  if (m[2] === "R")
    return {
      es: `${kind.es} (${eu ? "UE" : "CE"}) n.º ${number}/${year}`,
      en: `${kind.en} (${eu ? "EU" : "EC"}) No ${number}/${year}`,
    };
  const short = year < 1999 ? String(year).slice(2) : String(year);
  return {
    es: `${kind.es} ${short}/${number}/${eu ? "UE" : "CE"}`,
    en: `${kind.en} ${short}/${number}/${eu ? "EU" : "EC"}`,
  };
}

/** An act's amendments as its stored relations to earlier norms (label: the earlier act as cited in English). */
export function euRelationsOf(amendments: readonly EuAmendment[]): SourceRelation[] {
  return amendments.map((a) => ({
    type: EU_RELATIONS[a.relation],
    code: a.relation,
    targetSourceId: a.target,
    label: euActCitation(a.target).en,
    direction: "earlier",
  }));
}
