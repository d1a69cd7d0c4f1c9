/**
 * Mapping tables for the BOE's own codes: section, department, rank, materias and
 * alertas → the platform's areas, kinds and jurisdictions. Data only; the rules that
 * read them are in ../codes.ts. Patterns are matched on folded text (no accents, lower
 * case); codes are the BOE's (datos-auxiliares tables).
 */
import type { AreaId, JurisdictionId, KindId } from "../../../lib/taxonomy.ts";

export interface SectionRule {
  name: string;
  /** The area every item of the section gets (section V-A: procurement only). */
  area?: AreaId;
  /** The area is the only one (no other layer adds areas). */
  exclusive?: boolean;
}

export const boeSections: Record<string, SectionRule> = {
  "1": { name: "I. Disposiciones generales" },
  "2A": { name: "II.A. Nombramientos, situaciones e incidencias", area: "public-sector" },
  "2B": { name: "II.B. Oposiciones y concursos", area: "public-sector" },
  "3": { name: "III. Otras disposiciones" },
  "4": { name: "IV. Administración de Justicia", area: "justice" },
  "5A": { name: "V.A. Contratación del Sector Público", area: "procurement", exclusive: true },
  "5B": { name: "V.B. Otros anuncios oficiales" },
  "5C": { name: "V.C. Anuncios particulares" },
  T: { name: "Tribunal Constitucional", area: "justice" },
};

export interface DepartmentRule {
  /** BOE department codes. */
  codes?: string[];
  /** Folded substrings of the department's name (used when the code is unknown). */
  names: string[];
  area?: AreaId;
  jurisdiction?: JurisdictionId;
  /** A court or judicial body (jurisdiction ES, area justice). */
  court?: boolean;
  /**
   * A ministry: its name is a hint, not a decision (most of its acts are the
   * administration's own business); weighs `weak` instead of 0.9.
   */
  weak?: number;
}

/** Departments whose name alone tells the area. Ministries are left to the other layers. */
export const boeDepartments: DepartmentRule[] = [
  { codes: ["1020"], names: ["banco de espana"], area: "banking" },
  { codes: ["1040"], names: ["comision nacional del mercado de valores"], area: "securities" },
  { codes: ["1011"], names: ["agencia espanola de proteccion de datos"], area: "data-protection" },
  { codes: ["1840"], names: ["consejo de seguridad nuclear"], area: "energy" },
  { codes: ["1410"], names: ["tribunal constitucional"], area: "justice", court: true },
  { codes: ["1820"], names: ["consejo general del poder judicial"], area: "justice", court: true },
  {
    codes: ["9546", "9571", "9602", "9603", "9605"],
    names: ["juzgado", "tribunales de instancia", "servicios comunes procesales", "tribunal superior de justicia"],
    area: "justice",
    court: true,
  },
  { names: ["agencia estatal de administracion tributaria"], area: "tax" },
  { names: ["direccion general de seguros y fondos de pensiones"], area: "insurance" },
  { names: ["agencia espanola de medicamentos"], area: "pharma" },
  { names: ["servicio ejecutivo de la comision de prevencion del blanqueo"], area: "aml" },
  { codes: ["9534"], names: ["comision nacional de los mercados y la competencia"], area: "consumer", weak: 0.4 },
  // Ministries (taxonomy.md's hints): weak evidence that the other layers confirm or outweigh.
  { names: ["ministerio de sanidad"], area: "health", weak: 0.4 },
  { names: ["ministerio de trabajo"], area: "employment", weak: 0.4 },
  { names: ["ministerio de inclusion, seguridad social"], area: "employment", weak: 0.3 },
  { names: ["ministerio de hacienda"], area: "tax", weak: 0.25 },
  { names: ["ministerio para la transicion ecologica"], area: "environment", weak: 0.25 },
  { names: ["ministerio de transportes"], area: "transport", weak: 0.25 },
  { names: ["ministerio para la transformacion digital"], area: "digital", weak: 0.25 },
];

/** Autonomous communities (and the two cities) by folded name fragments. */
export const communities: { id: JurisdictionId; names: string[] }[] = [
  { id: "ES-AN", names: ["andalucia", "junta de andalucia"] },
  { id: "ES-AR", names: ["aragon"] },
  { id: "ES-AS", names: ["principado de asturias", "asturias"] },
  { id: "ES-IB", names: ["illes balears", "islas baleares"] },
  { id: "ES-CN", names: ["canarias"] },
  { id: "ES-CB", names: ["cantabria"] },
  { id: "ES-CL", names: ["castilla y leon"] },
  { id: "ES-CM", names: ["castilla-la mancha", "castilla la mancha"] },
  { id: "ES-CT", names: ["cataluna", "catalunya", "generalitat de catalunya"] },
  { id: "ES-EX", names: ["extremadura"] },
  { id: "ES-GA", names: ["galicia", "xunta"] },
  { id: "ES-MD", names: ["comunidad de madrid"] },
  { id: "ES-MC", names: ["region de murcia"] },
  { id: "ES-NC", names: ["navarra"] },
  { id: "ES-PV", names: ["pais vasco", "euskadi"] },
  { id: "ES-RI", names: ["la rioja"] },
  { id: "ES-VC", names: ["comunitat valenciana", "comunidad valenciana", "generalitat valenciana"] },
  { id: "ES-CE", names: ["ciudad de ceuta", "ciudad autonoma de ceuta"] },
  { id: "ES-ML", names: ["ciudad de melilla", "ciudad autonoma de melilla"] },
];

/** Provinces, islands and the cities of Ceuta and Melilla → community (for local bodies). */
export const provinces: Record<string, JurisdictionId> = {
  almeria: "ES-AN",
  cadiz: "ES-AN",
  cordoba: "ES-AN",
  granada: "ES-AN",
  huelva: "ES-AN",
  jaen: "ES-AN",
  malaga: "ES-AN",
  sevilla: "ES-AN",
  huesca: "ES-AR",
  teruel: "ES-AR",
  zaragoza: "ES-AR",
  asturias: "ES-AS",
  "illes balears": "ES-IB",
  mallorca: "ES-IB",
  menorca: "ES-IB",
  eivissa: "ES-IB",
  ibiza: "ES-IB",
  "las palmas": "ES-CN",
  "santa cruz de tenerife": "ES-CN",
  tenerife: "ES-CN",
  cantabria: "ES-CB",
  avila: "ES-CL",
  burgos: "ES-CL",
  leon: "ES-CL",
  palencia: "ES-CL",
  salamanca: "ES-CL",
  segovia: "ES-CL",
  soria: "ES-CL",
  valladolid: "ES-CL",
  zamora: "ES-CL",
  albacete: "ES-CM",
  "ciudad real": "ES-CM",
  cuenca: "ES-CM",
  guadalajara: "ES-CM",
  toledo: "ES-CM",
  barcelona: "ES-CT",
  girona: "ES-CT",
  lleida: "ES-CT",
  tarragona: "ES-CT",
  badajoz: "ES-EX",
  caceres: "ES-EX",
  "a coruna": "ES-GA",
  lugo: "ES-GA",
  ourense: "ES-GA",
  pontevedra: "ES-GA",
  madrid: "ES-MD",
  murcia: "ES-MC",
  navarra: "ES-NC",
  araba: "ES-PV",
  alava: "ES-PV",
  bizkaia: "ES-PV",
  gipuzkoa: "ES-PV",
  "la rioja": "ES-RI",
  alicante: "ES-VC",
  alacant: "ES-VC",
  castellon: "ES-VC",
  castello: "ES-VC",
  valencia: "ES-VC",
  ceuta: "ES-CE",
  melilla: "ES-ML",
};

/**
 * Universities (public, of a community) → community; the UNED and the Menéndez Pelayo
 * are State universities (ES). Folded fragments of the name after "Universidad".
 */
export const universities: { names: string[]; jurisdiction: JurisdictionId }[] = [
  { names: ["nacional de educacion a distancia", "internacional menendez pelayo"], jurisdiction: "ES" },
  {
    names: [
      "almeria",
      "cadiz",
      "cordoba",
      "granada",
      "huelva",
      "jaen",
      "malaga",
      "sevilla",
      "pablo de olavide",
      "internacional de andalucia",
    ],
    jurisdiction: "ES-AN",
  },
  { names: ["zaragoza"], jurisdiction: "ES-AR" },
  { names: ["oviedo"], jurisdiction: "ES-AS" },
  { names: ["illes balears"], jurisdiction: "ES-IB" },
  { names: ["la laguna", "las palmas de gran canaria"], jurisdiction: "ES-CN" },
  { names: ["cantabria"], jurisdiction: "ES-CB" },
  { names: ["burgos", "leon", "salamanca", "valladolid"], jurisdiction: "ES-CL" },
  { names: ["castilla-la mancha"], jurisdiction: "ES-CM" },
  {
    names: [
      "barcelona",
      "autonoma de barcelona",
      "politecnica de catalunya",
      "pompeu fabra",
      "girona",
      "lleida",
      "rovira i virgili",
      "oberta de catalunya",
    ],
    jurisdiction: "ES-CT",
  },
  { names: ["extremadura"], jurisdiction: "ES-EX" },
  { names: ["santiago de compostela", "a coruna", "vigo"], jurisdiction: "ES-GA" },
  {
    names: ["complutense", "autonoma de madrid", "politecnica de madrid", "carlos iii", "alcala", "rey juan carlos"],
    jurisdiction: "ES-MD",
  },
  { names: ["murcia", "politecnica de cartagena"], jurisdiction: "ES-MC" },
  { names: ["publica de navarra"], jurisdiction: "ES-NC" },
  { names: ["pais vasco", "euskal herriko"], jurisdiction: "ES-PV" },
  { names: ["la rioja"], jurisdiction: "ES-RI" },
  {
    names: [
      "valencia",
      "politecnica de valencia",
      "politecnica de valencia",
      "alicante",
      "jaume i",
      "miguel hernandez",
    ],
    jurisdiction: "ES-VC",
  },
];

/** Towns seen in the BOE whose province the title does not name. */
export const towns: Record<string, JurisdictionId> = {
  torrent: "ES-VC",
  bullas: "ES-MC",
  borriana: "ES-VC",
  "la nucia": "ES-VC",
  amposta: "ES-CT",
  caudete: "ES-CM",
  beniarbeig: "ES-VC",
  "santa pola": "ES-VC",
  "la linea de la concepcion": "ES-AN",
};

/** BOE rango codes → kind (datos-auxiliares/rangos). */
export const boeRanks: Record<string, KindId> = {
  "1070": "constitution",
  "1290": "organic-law",
  "1300": "law",
  "1310": "legislative-decree",
  "1320": "decree-law",
  "1325": "legislative-decree",
  "1340": "royal-decree",
  "1350": "order",
  "1370": "resolution",
  "1390": "circular",
  "1410": "instruction",
  "1450": "instruction",
  "1500": "decree-law",
  "1510": "decree",
  "1520": "legislative-decree",
  "1020": "agreement",
  "1240": "ruling",
  "1250": "ruling",
  "1590": "correction",
};

/** Title openings → kind, longest first wins (folded). */
export const titleKinds: { prefix: string; kind: KindId }[] = [
  { prefix: "correccion de errores", kind: "correction" },
  { prefix: "correccion de erratas", kind: "correction" },
  { prefix: "constitucion espanola", kind: "constitution" },
  { prefix: "ley organica", kind: "organic-law" },
  { prefix: "real decreto legislativo", kind: "legislative-decree" },
  { prefix: "real decreto-ley", kind: "decree-law" },
  { prefix: "real decreto ley", kind: "decree-law" },
  { prefix: "real decreto", kind: "royal-decree" },
  { prefix: "decreto legislativo", kind: "legislative-decree" },
  { prefix: "decreto-ley", kind: "decree-law" },
  { prefix: "decreto ley", kind: "decree-law" },
  { prefix: "decreto foral legislativo", kind: "legislative-decree" },
  { prefix: "decreto foral", kind: "decree" },
  { prefix: "decreto", kind: "decree" },
  { prefix: "ley foral", kind: "law" },
  { prefix: "ley", kind: "law" },
  { prefix: "orden", kind: "order" },
  { prefix: "resolucion", kind: "resolution" },
  { prefix: "circular", kind: "circular" },
  { prefix: "instruccion", kind: "instruction" },
  { prefix: "acuerdo", kind: "agreement" },
  { prefix: "sentencia", kind: "ruling" },
  { prefix: "auto", kind: "ruling" },
  { prefix: "anuncio", kind: "announcement" },
  { prefix: "extracto", kind: "announcement" },
];

/** Materias (BOE thesaurus) by code → area. Codes from the recorded documents and the BOE table. */
export const boeMaterias: Record<string, AreaId> = {
  "60": "securities",
  "449": "banking",
  "3233": "banking",
  "3239": "banking",
  "4012": "banking",
  "1757": "banking",
  "3229": "insurance",
  "3795": "insurance",
  "5606": "insurance",
  "5343": "payments",
  "6896": "securities",
  "1627": "corporate",
  "385": "corporate",
  "3472": "corporate",
  "4087": "tax",
  "4101": "tax",
  "4102": "tax",
  "4107": "tax",
  "4108": "tax",
  "4113": "tax",
  "4114": "tax",
  "4116": "tax",
  "4281": "tax",
  "5342": "tax",
  "5876": "tax",
  "6658": "tax",
  "6836": "tax",
  "6924": "tax",
  "1754": "employment",
  "2483": "employment",
  "1624": "consumer",
  "305": "consumer",
  "7162": "consumer",
  "3069": "energy",
  "3188": "energy",
  "3889": "energy",
  "3892": "energy",
  "4000": "energy",
  "5575": "energy",
  "1734": "energy",
  "4461": "energy",
  "173": "environment",
  "1346": "environment",
  "1631": "environment",
  "5651": "environment",
  "530": "transport",
  "6936": "transport",
  "7116": "transport",
  "6664": "transport",
  "1640": "procurement",
  "420": "grants",
  "6800": "grants",
  "3771": "grants",
  "2253": "justice",
  "5904": "justice",
  "5776": "justice",
  "5995": "justice",
  "3089": "digital",
  "4506": "digital",
  "93": "public-sector",
  "5278": "public-sector",
  "5686": "public-sector",
  "1758": "public-sector",
  "5415": "public-sector",
  "856": "public-sector",
  "4144": "public-sector",
  "4350": "public-sector",
};

/** Materias by folded label fragment, for codes not in the table above. */
export const boeMateriaLabels: { fragment: string; area: AreaId }[] = [
  { fragment: "blanqueo", area: "aml" },
  { fragment: "terroris", area: "aml" },
  { fragment: "entidades de credito", area: "banking" },
  { fragment: "mercado de valores", area: "securities" },
  { fragment: "instituciones de inversion colectiva", area: "securities" },
  { fragment: "seguro", area: "insurance" },
  { fragment: "pensiones", area: "insurance" },
  { fragment: "servicios de pago", area: "payments" },
  { fragment: "dinero electronico", area: "payments" },
  { fragment: "impuesto", area: "tax" },
  { fragment: "tribut", area: "tax" },
  { fragment: "aduan", area: "tax" },
  { fragment: "convenios colectivos", area: "employment" },
  { fragment: "seguridad social", area: "employment" },
  { fragment: "prevencion de riesgos laborales", area: "employment" },
  { fragment: "sociedades mercantiles", area: "corporate" },
  { fragment: "registro mercantil", area: "corporate" },
  { fragment: "concurso de acreedores", area: "corporate" },
  { fragment: "proteccion de datos", area: "data-protection" },
  { fragment: "datos de caracter personal", area: "data-protection" },
  { fragment: "telecomunicaciones", area: "digital" },
  { fragment: "ciberseguridad", area: "digital" },
  { fragment: "firma electronica", area: "digital" },
  { fragment: "medicamentos", area: "pharma" },
  { fragment: "productos sanitarios", area: "pharma" },
  { fragment: "farmac", area: "pharma" },
  { fragment: "sanidad", area: "health" },
  { fragment: "salud publica", area: "health" },
  { fragment: "consumidores", area: "consumer" },
  { fragment: "defensa de la competencia", area: "consumer" },
  { fragment: "energia", area: "energy" },
  { fragment: "electric", area: "energy" },
  { fragment: "hidrocarburos", area: "energy" },
  { fragment: "medio ambiente", area: "environment" },
  { fragment: "residuos", area: "environment" },
  { fragment: "aguas", area: "environment" },
  { fragment: "transporte", area: "transport" },
  { fragment: "vehiculos", area: "transport" },
  { fragment: "contratacion", area: "procurement" },
  { fragment: "subvenciones", area: "grants" },
  { fragment: "ayudas", area: "grants" },
  { fragment: "inconstitucionalidad", area: "justice" },
];

/** Alertas (topic channels) by code → area. Channels with no single area are left out. */
export const boeAlertas: Record<string, AreaId> = {
  "106": "consumer",
  "112": "corporate",
  "115": "energy",
  "119": "environment",
  "125": "employment",
  "127": "banking",
  "128": "tax",
  "130": "digital",
  "131": "employment",
  "132": "transport",
};
