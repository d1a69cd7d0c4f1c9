/**
 * Jurisdiction: the source's hint first (EU for EUR-Lex: sources/eurlex/classification.ts); an autonomous community when the department is one or
 * is a local or regional body of one (town halls, provincial councils, universities);
 * ES for State bodies (their regional offices too), courts, and when the place cannot
 * be told.
 */
import type { JurisdictionId } from "../../lib/taxonomy.ts";
import type { SourceDocument } from "../documents/types.ts";
import { classificationHints } from "../sources/registry.ts";
import { departmentRule } from "./codes.ts";
import type { DocumentText } from "./document-text.ts";
import { communities, communityDepartments, provinces, towns, universities } from "./tables/boe.ts";
import { fold } from "./text.ts";

export interface JurisdictionResult {
  id: JurisdictionId;
  reason: { es: string; en: string };
}

const communityName = (id: JurisdictionId) => communities.find((c) => c.id === id)?.names[0] ?? id;

function communityOf(folded: string): JurisdictionId | undefined {
  return communities.find((c) => c.names.some((name) => folded.includes(name)))?.id;
}

/** A place named in the text: "(Alicante/Alacant)", "Diputación Provincial de Zamora", "Ayuntamiento de Torrent". */
function placeOf(foldedTitle: string): JurisdictionId | undefined {
  const candidates: string[] = [];
  for (const m of foldedTitle.matchAll(/\(([^)]+)\)/g)) candidates.push(...(m[1] ?? "").split("/"));
  const body = foldedTitle.match(
    /(?:ayuntamiento|ajuntament|diputacion provincial|diputacion foral|diputacio|consejo insular|consell insular|cabildo insular|mancomunidad|comarca|consejo comarcal|consell comarcal|ciudad autonoma|ciudad)\s+(?:de\s+(?:la\s+|las\s+|los\s+|l')?|del\s+)?([\p{L} '-]+?)(?:,|\(|\.| referente| por | sobre |$)/u,
  );
  if (body?.[1]) candidates.push(body[1]);
  for (const raw of candidates) {
    const name = raw.trim();
    const hit = provinces[name] ?? towns[name] ?? communityOf(name);
    if (hit) return hit;
    const lastWord = name.split(/\s+/).pop() ?? "";
    if (provinces[lastWord]) return provinces[lastWord];
  }
  return undefined;
}

/**
 * The official journal a local or regional body's notice cites: "«Boletín Oficial de la
 * Provincia de Valencia»", "«Boletín Oficial de Canarias»", "«Diari Oficial de la Generalitat de
 * Catalunya»". Its place is the body's, by the provinces' and the communities' own names.
 */
function gazettePlaceOf(foldedText: string): JurisdictionId | undefined {
  for (const m of foldedText.matchAll(
    /(?:boletin|butlleti|diario|diari|buletin) oficial (?:de la |del |de )?(?:provincia |provincia de |provincia de la |provincia de les |territorio historico de )?(?:de )?([\p{L} '/-]{3,60})/gu,
  )) {
    const name = (m[1] ?? "").trim();
    const province = Object.keys(provinces).find(
      (p) => name === p || name.startsWith(`${p} `) || name.startsWith(`${p}/`),
    );
    const hit = (province ? provinces[province] : undefined) ?? communityOf(name);
    if (hit) return hit;
  }
  return undefined;
}

const stripArticle = (name: string) => name.replace(/^(?:la|las|los|el|les|l')\s+/, "");

function universityOf(foldedTitle: string): JurisdictionId | undefined {
  const m = foldedTitle.match(/universi(?:dad|tat|tatea)\s+(?:de\s+|del\s+)?([\p{L} '-/]+)/u);
  if (!m?.[1]) return undefined;
  // "Universidad de La Rioja", "de Las Palmas de Gran Canaria": the article belongs to the name.
  const rest = stripArticle(m[1]);
  for (const entry of universities) {
    if (entry.names.some((name) => rest.startsWith(stripArticle(name)))) return entry.jurisdiction;
  }
  return undefined;
}

export function jurisdictionOf(doc: SourceDocument, text: DocumentText): JurisdictionResult {
  const hinted = classificationHints(doc.source).jurisdiction?.(doc, text);
  if (hinted) return hinted;
  const department = departmentRule(doc, text);
  if (department?.court) {
    return {
      id: "ES",
      reason: {
        es: `Órgano judicial o constitucional: ${text.department}`,
        en: `Court or constitutional body: ${text.department}`,
      },
    };
  }
  const byCode = doc.department?.code ? communityDepartments[doc.department.code] : undefined;
  if (byCode) {
    return {
      id: byCode,
      reason: {
        es: `Departamento autonómico: ${text.department || communityName(byCode)}`,
        en: `Regional department: ${text.department || communityName(byCode)}`,
      },
    };
  }
  const dept = text.foldedDepartment;
  const isCommunity =
    /^(comunidad|comunitat|ciudad autonoma|ciudad de (ceuta|melilla))/.test(dept) ||
    doc.origin?.label?.toLowerCase().startsWith("auton");
  if (isCommunity) {
    const id = communityOf(dept);
    if (id) {
      return {
        id,
        reason: { es: `Departamento autonómico: ${text.department}`, en: `Regional department: ${text.department}` },
      };
    }
  }
  if (dept.startsWith("administracion local")) {
    const id = placeOf(text.foldedTitle) ?? communityOf(text.foldedTitle) ?? gazettePlaceOf(fold(text.opening));
    if (id) {
      return {
        id,
        reason: {
          es: `Entidad local de ${communityName(id)}`,
          en: `Local body in ${communityName(id)}`,
        },
      };
    }
  }
  if (dept.startsWith("universidades")) {
    const id = universityOf(text.foldedTitle) ?? gazettePlaceOf(fold(text.opening));
    if (id) {
      return {
        id,
        reason:
          id === "ES"
            ? { es: "Universidad estatal", en: "State university" }
            : { es: `Universidad de ${communityName(id)}`, en: `University in ${communityName(id)}` },
      };
    }
  }
  return {
    id: "ES",
    reason: text.department
      ? { es: `Órgano del Estado: ${text.department}`, en: `State body: ${text.department}` }
      : { es: "Ámbito estatal (lugar no indicado)", en: "State level (place not stated)" },
  };
}
