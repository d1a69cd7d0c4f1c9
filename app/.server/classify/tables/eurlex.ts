/**
 * Mapping tables for EUR-Lex codes: resource type → kind, author (corporate body) →
 * area, EuroVoc concepts and directory codes → area. Data only; read by ../codes.ts.
 */
import type { AreaId, KindId } from "../../../lib/taxonomy.ts";

/** Publications Office resource-type codes (authority table resource-type). */
export const eurlexResourceTypes: Record<string, KindId> = {
  REG: "regulation",
  REG_DEL: "delegated-regulation",
  REG_IMPL: "implementing-regulation",
  REG_FINANC: "regulation",
  DIR: "directive",
  DIR_DEL: "directive",
  DIR_IMPL: "directive",
  DEC: "decision",
  DEC_DEL: "decision",
  DEC_IMPL: "decision",
  DEC_FRAMW: "decision",
  RECO: "recommendation",
  COMMUNIC: "notice",
  NOTICE: "notice",
  CORRIGENDUM: "correction",
};

/** The CELEX sector-3 descriptor letter → kind, when no resource type is given. */
export const celexLetters: Record<string, KindId> = {
  R: "regulation",
  L: "directive",
  D: "decision",
  H: "recommendation",
  C: "notice",
};

/** Authors (corporate-body codes) that tell the area. */
export const eurlexAuthors: Record<string, { area: AreaId; name: string }> = {
  EBA: { area: "banking", name: "European Banking Authority" },
  ECB: { area: "banking", name: "European Central Bank" },
  ESMA: { area: "securities", name: "European Securities and Markets Authority" },
  EIOPA: { area: "insurance", name: "European Insurance and Occupational Pensions Authority" },
  EMA: { area: "pharma", name: "European Medicines Agency" },
  EDPB: { area: "data-protection", name: "European Data Protection Board" },
  EDPS: { area: "data-protection", name: "European Data Protection Supervisor" },
  ENISA: { area: "digital", name: "European Union Agency for Cybersecurity" },
  AMLA: { area: "aml", name: "Anti-Money Laundering Authority" },
  EFSA: { area: "health", name: "European Food Safety Authority" },
  ACER: { area: "energy", name: "Agency for the Cooperation of Energy Regulators" },
  EEA: { area: "environment", name: "European Environment Agency" },
  EASA: { area: "transport", name: "European Union Aviation Safety Agency" },
  ERA: { area: "transport", name: "European Union Agency for Railways" },
  EMSA: { area: "transport", name: "European Maritime Safety Agency" },
};

/** EUR-Lex directory chapters (first two digits) → area, where one area fits the chapter. */
export const eurlexDirectoryChapters: Record<string, AreaId> = {
  "02": "tax",
  "05": "employment",
  "07": "transport",
  "08": "consumer",
  "09": "tax",
  "12": "energy",
  "17": "corporate",
  "19": "justice",
};

/** Directory sub-headings (code prefix without dots) → area; more specific than chapters. */
export const eurlexDirectoryHeadings: Record<string, AreaId> = {
  "062020": "banking",
  "062030": "insurance",
  "062040": "securities",
  "1030": "payments",
  "1530": "environment",
  "1520": "consumer",
  "1510": "health",
  "132060": "pharma",
  "1320": "digital",
  "1610": "digital",
};

/** EuroVoc concept labels (folded fragments, es and en) → area. */
export const eurovocLabels: { fragment: string; area: AreaId }[] = [
  { fragment: "credit institution", area: "banking" },
  { fragment: "entidad de credito", area: "banking" },
  { fragment: "banking", area: "banking" },
  { fragment: "prudential supervision", area: "banking" },
  { fragment: "financial market", area: "securities" },
  { fragment: "mercado financiero", area: "securities" },
  { fragment: "market abuse", area: "securities" },
  { fragment: "insider dealing", area: "securities" },
  { fragment: "securities", area: "securities" },
  { fragment: "insurance", area: "insurance" },
  { fragment: "seguro", area: "insurance" },
  { fragment: "pension", area: "insurance" },
  { fragment: "payment", area: "payments" },
  { fragment: "electronic money", area: "payments" },
  { fragment: "crypto", area: "payments" },
  { fragment: "money laundering", area: "aml" },
  { fragment: "blanqueo", area: "aml" },
  { fragment: "tax", area: "tax" },
  { fragment: "impuesto", area: "tax" },
  { fragment: "personal data", area: "data-protection" },
  { fragment: "datos personales", area: "data-protection" },
  { fragment: "data protection", area: "data-protection" },
  { fragment: "electronic signature", area: "digital" },
  { fragment: "telecommunications", area: "digital" },
  { fragment: "roaming", area: "digital" },
  { fragment: "digital", area: "digital" },
  { fragment: "cybersecurity", area: "digital" },
  { fragment: "medicinal product", area: "pharma" },
  { fragment: "medical device", area: "pharma" },
  { fragment: "public health", area: "health" },
  { fragment: "consumer protection", area: "consumer" },
  { fragment: "competition", area: "consumer" },
  { fragment: "energy", area: "energy" },
  { fragment: "environment", area: "environment" },
  { fragment: "sustainab", area: "sustainability" },
  { fragment: "transport", area: "transport" },
  { fragment: "public contract", area: "procurement" },
];
