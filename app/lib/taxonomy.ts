/**
 * The platform's own labels (docs/taxonomy.md) as data: areas, jurisdictions,
 * kinds and relevance levels, each with a stable id and a name in es and en. Isomorphic:
 * the filters in the browser, the API (`GET /api/v1/taxonomy`) and the classifier read it.
 */

export type LocalizedName = { es: string; en: string };

export const areaIds = [
  "banking",
  "securities",
  "insurance",
  "payments",
  "aml",
  "tax",
  "employment",
  "corporate",
  "data-protection",
  "digital",
  "pharma",
  "health",
  "consumer",
  "energy",
  "environment",
  "sustainability",
  "transport",
  "procurement",
  "grants",
  "justice",
  "public-sector",
] as const;
export type AreaId = (typeof areaIds)[number];

export const jurisdictionIds = [
  "EU",
  "ES",
  "ES-AN",
  "ES-AR",
  "ES-AS",
  "ES-IB",
  "ES-CN",
  "ES-CB",
  "ES-CL",
  "ES-CM",
  "ES-CT",
  "ES-EX",
  "ES-GA",
  "ES-MD",
  "ES-MC",
  "ES-NC",
  "ES-PV",
  "ES-RI",
  "ES-VC",
  "ES-CE",
  "ES-ML",
] as const;
export type JurisdictionId = (typeof jurisdictionIds)[number];

export const kindIds = [
  "constitution",
  "organic-law",
  "law",
  "decree-law",
  "legislative-decree",
  "royal-decree",
  "decree",
  "order",
  "resolution",
  "circular",
  "instruction",
  "agreement",
  "ruling",
  "announcement",
  "correction",
  "regulation",
  "delegated-regulation",
  "implementing-regulation",
  "directive",
  "decision",
  "recommendation",
  "notice",
  "other",
] as const;
export type KindId = (typeof kindIds)[number];

export const relevanceIds = ["high", "medium", "low"] as const;
export type RelevanceId = (typeof relevanceIds)[number];

export interface AreaDefinition {
  id: AreaId;
  name: LocalizedName;
  /**
   * Words a reader would search with, in both languages (EuroVoc-style labels): an
   * English query finds Spanish documents of the area through these, and back.
   */
  searchTerms: { es: readonly string[]; en: readonly string[] };
}

export const areas: readonly AreaDefinition[] = [
  {
    id: "banking",
    name: { es: "Banca y entidades de crédito", en: "Banking and credit institutions" },
    searchTerms: {
      es: [
        "banca",
        "entidades de crédito",
        "solvencia",
        "préstamos hipotecarios",
        "Banco de España",
        "garantía de depósitos",
      ],
      en: [
        "banking",
        "credit institutions",
        "solvency",
        "mortgage credit",
        "Bank of Spain",
        "deposit guarantee",
        "EBA",
      ],
    },
  },
  {
    id: "securities",
    name: { es: "Mercado de valores e inversión", en: "Securities and investment" },
    searchTerms: {
      es: [
        "mercado de valores",
        "CNMV",
        "fondos de inversión",
        "abuso de mercado",
        "folleto",
        "servicios de inversión",
      ],
      en: ["securities", "financial markets", "investment funds", "market abuse", "prospectus", "MiFID", "ESMA"],
    },
  },
  {
    id: "insurance",
    name: { es: "Seguros y pensiones", en: "Insurance and pensions" },
    searchTerms: {
      es: ["seguros", "entidades aseguradoras", "planes de pensiones", "fondos de pensiones", "DGSFP", "Solvencia II"],
      en: ["insurance", "insurers", "pension plans", "pension funds", "Solvency II", "EIOPA"],
    },
  },
  {
    id: "payments",
    name: { es: "Pagos y criptoactivos", en: "Payments and crypto-assets" },
    searchTerms: {
      es: [
        "servicios de pago",
        "dinero electrónico",
        "criptoactivos",
        "transferencias inmediatas",
        "entidades de pago",
      ],
      en: ["payment services", "electronic money", "crypto-assets", "MiCA", "instant payments", "PSD2"],
    },
  },
  {
    id: "aml",
    name: { es: "Prevención del blanqueo", en: "Anti-money laundering" },
    searchTerms: {
      es: ["blanqueo de capitales", "financiación del terrorismo", "sanciones financieras", "SEPBLAC"],
      en: ["money laundering", "terrorist financing", "financial sanctions", "AML", "AMLA"],
    },
  },
  {
    id: "tax",
    name: { es: "Fiscal", en: "Tax" },
    searchTerms: {
      es: ["impuestos", "tributos", "Agencia Tributaria", "IRPF", "IVA", "aduanas", "modelos tributarios"],
      en: ["tax", "taxation", "tax agency", "income tax", "VAT", "customs duties", "tax forms"],
    },
  },
  {
    id: "employment",
    name: { es: "Laboral y Seguridad Social", en: "Employment and social security" },
    searchTerms: {
      es: ["laboral", "convenio colectivo", "Seguridad Social", "prevención de riesgos laborales", "trabajadores"],
      en: [
        "employment",
        "labour law",
        "collective agreement",
        "social security",
        "health and safety at work",
        "workers",
      ],
    },
  },
  {
    id: "corporate",
    name: { es: "Mercantil y sociedades", en: "Corporate and commercial" },
    searchTerms: {
      es: ["sociedades", "registro mercantil", "concurso de acreedores", "contabilidad", "auditoría de cuentas"],
      en: ["companies", "company law", "commercial registry", "insolvency", "accounting", "audit"],
    },
  },
  {
    id: "data-protection",
    name: { es: "Protección de datos", en: "Data protection" },
    searchTerms: {
      es: ["protección de datos", "datos personales", "AEPD", "RGPD", "privacidad"],
      en: ["data protection", "personal data", "GDPR", "privacy"],
    },
  },
  {
    id: "digital",
    name: { es: "Ciberseguridad y servicios digitales", en: "Cybersecurity and digital services" },
    searchTerms: {
      es: [
        "ciberseguridad",
        "servicios digitales",
        "inteligencia artificial",
        "telecomunicaciones",
        "firma electrónica",
      ],
      en: [
        "cybersecurity",
        "digital services",
        "artificial intelligence",
        "telecommunications",
        "electronic signature",
        "NIS2",
        "DORA",
      ],
    },
  },
  {
    id: "pharma",
    name: { es: "Medicamentos y productos sanitarios", en: "Medicines and medical devices" },
    searchTerms: {
      es: ["medicamentos", "productos sanitarios", "AEMPS", "farmacovigilancia", "precios de medicamentos"],
      en: ["medicines", "medicinal products", "medical devices", "pharmacovigilance", "EMA", "drug pricing"],
    },
  },
  {
    id: "health",
    name: { es: "Sanidad y salud pública", en: "Health and public health" },
    searchTerms: {
      es: ["sanidad", "salud pública", "asistencia sanitaria", "seguridad alimentaria"],
      en: ["health", "public health", "healthcare", "food safety"],
    },
  },
  {
    id: "consumer",
    name: { es: "Consumo y competencia", en: "Consumer and competition" },
    searchTerms: {
      es: ["consumidores", "competencia", "CNMC", "ayudas de Estado", "publicidad", "comercio"],
      en: ["consumer protection", "competition", "state aid", "advertising", "retail trade"],
    },
  },
  {
    id: "energy",
    name: { es: "Energía", en: "Energy" },
    searchTerms: {
      es: ["energía", "electricidad", "gas natural", "renovables", "hidrocarburos", "instalaciones eléctricas"],
      en: ["energy", "electricity", "natural gas", "renewables", "hydrocarbons", "power plants"],
    },
  },
  {
    id: "environment",
    name: { es: "Medio ambiente y clima", en: "Environment and climate" },
    searchTerms: {
      es: ["medio ambiente", "emisiones", "residuos", "aguas", "evaluación ambiental", "costas"],
      en: ["environment", "climate", "emissions", "waste", "water", "environmental assessment", "coastal"],
    },
  },
  {
    id: "sustainability",
    name: { es: "Sostenibilidad e información no financiera", en: "Sustainability reporting" },
    searchTerms: {
      es: ["información no financiera", "sostenibilidad", "diligencia debida", "taxonomía", "ESG"],
      en: [
        "sustainability reporting",
        "non-financial information",
        "CSRD",
        "due diligence",
        "taxonomy regulation",
        "ESG",
      ],
    },
  },
  {
    id: "transport",
    name: { es: "Automoción y transporte", en: "Automotive and transport" },
    searchTerms: {
      es: ["transporte", "vehículos", "homologación", "ferrocarril", "puertos", "carreteras", "aviación"],
      en: ["transport", "vehicles", "type-approval", "railways", "ports", "roads", "aviation", "mobility"],
    },
  },
  {
    id: "procurement",
    name: { es: "Contratación pública", en: "Public procurement" },
    searchTerms: {
      es: ["contratación pública", "licitación", "adjudicación", "contratos del sector público"],
      en: ["public procurement", "tender", "contract award", "public contracts"],
    },
  },
  {
    id: "grants",
    name: { es: "Ayudas y subvenciones", en: "Grants and subsidies" },
    searchTerms: {
      es: ["ayudas", "subvenciones", "convocatoria", "fondos europeos", "bases reguladoras"],
      en: ["grants", "subsidies", "call for aid", "EU funds", "funding"],
    },
  },
  {
    id: "justice",
    name: { es: "Justicia y procedimiento", en: "Justice and procedure" },
    searchTerms: {
      es: ["justicia", "tribunales", "Tribunal Constitucional", "sentencia", "notarios", "registros"],
      en: ["justice", "courts", "constitutional court", "judgment", "notaries", "registries", "procedure"],
    },
  },
  {
    id: "public-sector",
    name: { es: "Sector público y empleo público", en: "Public sector and civil service" },
    searchTerms: {
      es: ["sector público", "empleo público", "oposiciones", "nombramientos", "administración pública", "cultura"],
      en: ["public sector", "civil service", "competitions", "appointments", "public administration", "culture"],
    },
  },
];

export const jurisdictions: readonly { id: JurisdictionId; name: LocalizedName }[] = [
  { id: "EU", name: { es: "Unión Europea", en: "European Union" } },
  { id: "ES", name: { es: "España (Estado)", en: "Spain (State)" } },
  { id: "ES-AN", name: { es: "Andalucía", en: "Andalusia" } },
  { id: "ES-AR", name: { es: "Aragón", en: "Aragon" } },
  { id: "ES-AS", name: { es: "Asturias", en: "Asturias" } },
  { id: "ES-IB", name: { es: "Illes Balears", en: "Balearic Islands" } },
  { id: "ES-CN", name: { es: "Canarias", en: "Canary Islands" } },
  { id: "ES-CB", name: { es: "Cantabria", en: "Cantabria" } },
  { id: "ES-CL", name: { es: "Castilla y León", en: "Castile and León" } },
  { id: "ES-CM", name: { es: "Castilla-La Mancha", en: "Castilla-La Mancha" } },
  { id: "ES-CT", name: { es: "Cataluña", en: "Catalonia" } },
  { id: "ES-EX", name: { es: "Extremadura", en: "Extremadura" } },
  { id: "ES-GA", name: { es: "Galicia", en: "Galicia" } },
  { id: "ES-MD", name: { es: "Madrid", en: "Madrid" } },
  { id: "ES-MC", name: { es: "Murcia", en: "Murcia" } },
  { id: "ES-NC", name: { es: "Navarra", en: "Navarre" } },
  { id: "ES-PV", name: { es: "País Vasco", en: "Basque Country" } },
  { id: "ES-RI", name: { es: "La Rioja", en: "La Rioja" } },
  { id: "ES-VC", name: { es: "Comunitat Valenciana", en: "Valencian Community" } },
  { id: "ES-CE", name: { es: "Ceuta", en: "Ceuta" } },
  { id: "ES-ML", name: { es: "Melilla", en: "Melilla" } },
];

export const kinds: readonly { id: KindId; name: LocalizedName }[] = [
  { id: "constitution", name: { es: "Constitución", en: "Constitution" } },
  { id: "organic-law", name: { es: "Ley orgánica", en: "Organic law" } },
  { id: "law", name: { es: "Ley", en: "Law" } },
  { id: "decree-law", name: { es: "Decreto-ley", en: "Decree-law" } },
  { id: "legislative-decree", name: { es: "Decreto legislativo", en: "Legislative decree" } },
  { id: "royal-decree", name: { es: "Real decreto", en: "Royal decree" } },
  { id: "decree", name: { es: "Decreto", en: "Decree" } },
  { id: "order", name: { es: "Orden", en: "Order" } },
  { id: "resolution", name: { es: "Resolución", en: "Resolution" } },
  { id: "circular", name: { es: "Circular", en: "Circular" } },
  { id: "instruction", name: { es: "Instrucción", en: "Instruction" } },
  { id: "agreement", name: { es: "Acuerdo", en: "Agreement" } },
  { id: "ruling", name: { es: "Sentencia o auto", en: "Ruling" } },
  { id: "announcement", name: { es: "Anuncio", en: "Announcement" } },
  { id: "correction", name: { es: "Corrección de errores", en: "Correction" } },
  { id: "regulation", name: { es: "Reglamento (UE)", en: "Regulation (EU)" } },
  { id: "delegated-regulation", name: { es: "Reglamento delegado (UE)", en: "Delegated regulation (EU)" } },
  { id: "implementing-regulation", name: { es: "Reglamento de ejecución (UE)", en: "Implementing regulation (EU)" } },
  { id: "directive", name: { es: "Directiva (UE)", en: "Directive (EU)" } },
  { id: "decision", name: { es: "Decisión (UE)", en: "Decision (EU)" } },
  { id: "recommendation", name: { es: "Recomendación", en: "Recommendation" } },
  { id: "notice", name: { es: "Comunicación", en: "Notice" } },
  { id: "other", name: { es: "Otro", en: "Other" } },
];

export const relevances: readonly { id: RelevanceId; name: LocalizedName }[] = [
  { id: "high", name: { es: "Alta", en: "High" } },
  { id: "medium", name: { es: "Media", en: "Medium" } },
  { id: "low", name: { es: "Baja", en: "Low" } },
];

const areaSet: ReadonlySet<string> = new Set(areaIds);
const jurisdictionSet: ReadonlySet<string> = new Set(jurisdictionIds);
const kindSet: ReadonlySet<string> = new Set(kindIds);
const relevanceSet: ReadonlySet<string> = new Set(relevanceIds);

export const isAreaId = (value: string): value is AreaId => areaSet.has(value);
export const isJurisdictionId = (value: string): value is JurisdictionId => jurisdictionSet.has(value);
export const isKindId = (value: string): value is KindId => kindSet.has(value);
export const isRelevanceId = (value: string): value is RelevanceId => relevanceSet.has(value);

export function areaName(id: AreaId, locale: keyof LocalizedName): string {
  return areas.find((area) => area.id === id)?.name[locale] ?? id;
}

export interface TaxonomyEntry {
  id: string;
  name: LocalizedName;
}

/** The body of `GET /api/v1/taxonomy` (ARCHITECTURE.md: areas, jurisdictions, kinds; relevance levels are `relevances`). */
export interface TaxonomyResponse {
  areas: TaxonomyEntry[];
  jurisdictions: TaxonomyEntry[];
  kinds: TaxonomyEntry[];
}

export function taxonomyResponse(): TaxonomyResponse {
  const entry = ({ id, name }: TaxonomyEntry): TaxonomyEntry => ({ id, name: { es: name.es, en: name.en } });
  return {
    areas: areas.map(entry),
    jurisdictions: jurisdictions.map(entry),
    kinds: kinds.map(entry),
  };
}

/**
 * Areas whose name or search terms (in either language) contain the query, accent- and
 * case-insensitively: lets an English query reach Spanish documents through their areas.
 */
export function areasMatchingQuery(query: string): AreaId[] {
  const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const needle = fold(query.trim());
  if (needle.length < 3) return [];
  return areas
    .filter((area) =>
      [area.name.es, area.name.en, ...area.searchTerms.es, ...area.searchTerms.en].some((term) => {
        const folded = fold(term);
        return folded.includes(needle) || needle.includes(folded);
      }),
    )
    .map((area) => area.id);
}
