/**
 * Keyword rules per area: phrases in Spanish and English, matched stemmed and
 * accent-insensitively against the title (strong) and the opening text (weaker).
 * `titleOnly` rules are too common in passing to count in the body.
 */
import type { AreaId } from "../../../lib/taxonomy.ts";

export interface KeywordRule {
  area: AreaId;
  phrases: { es?: string[]; en?: string[] };
  titleOnly?: boolean;
  /** The rule does not apply when the title has one of these (a more specific area's phrase). */
  unless?: string[];
}

export const keywordRules: KeywordRule[] = [
  {
    area: "banking",
    phrases: {
      es: [
        "entidades de crédito",
        "entidad de crédito",
        "préstamos hipotecarios",
        "contratación hipotecaria",
        "Fondo de Garantía de Depósitos",
        "establecimientos financieros de crédito",
        "cambios del euro",
        "tipos de interés",
        "solvencia de entidades",
      ],
      en: ["credit institutions", "prudential requirements", "deposit guarantee", "mortgage credit"],
    },
  },
  {
    area: "securities",
    phrases: {
      es: [
        "mercado de valores",
        "Comisión Nacional del Mercado de Valores",
        "fondo absorbente",
        "fondo absorbido",
        "instituciones de inversión colectiva",
        "abuso de mercado",
        "Obligaciones del Estado",
        "Bonos del Estado",
        "Letras del Tesoro",
      ],
      en: ["market abuse", "insider dealing", "investment firms", "financial instruments", "prospectus"],
    },
  },
  {
    area: "insurance",
    phrases: {
      es: [
        "entidades aseguradoras",
        "planes de pensiones",
        "fondos de pensiones",
        "Dirección General de Seguros",
        "contrato de seguro",
      ],
      en: ["insurance undertakings", "pension funds", "occupational pensions", "Solvency II"],
    },
  },
  {
    area: "payments",
    phrases: {
      es: [
        "servicios de pago",
        "entidades de pago",
        "dinero electrónico",
        "criptoactivos",
        "transferencias inmediatas",
      ],
      en: ["payment services", "electronic money", "crypto-assets", "instant payments", "payment accounts"],
    },
  },
  {
    area: "aml",
    phrases: {
      es: [
        "blanqueo de capitales",
        "financiación del terrorismo",
        "Servicio Ejecutivo de la Comisión de Prevención del Blanqueo",
      ],
      en: ["money laundering", "terrorist financing"],
    },
  },
  {
    area: "tax",
    phrases: {
      es: [
        "impuesto sobre la renta",
        "impuesto sobre sociedades",
        "impuesto sobre el valor añadido",
        "impuesto sobre el patrimonio",
        "impuestos especiales",
        "modifica el impuesto",
        "medidas tributarias",
        "tributos",
        "Agencia Tributaria",
        "Agencia Estatal de Administración Tributaria",
        "número de identificación fiscal",
        "fraude fiscal",
        "deuda tributaria",
        "aduanas",
      ],
      en: ["taxation", "tax authorities", "customs duties", "value added tax"],
    },
  },
  {
    area: "employment",
    phrases: {
      es: [
        "convenio colectivo",
        "Seguridad Social",
        "Sala de lo Social",
        "prevención de riesgos laborales",
        "permisos de nacimiento",
        "trabajadores del mar",
        "Mutuas Colaboradoras",
        "estatutos de la organización sindical",
        "asociación empresarial",
      ],
      en: ["collective agreement", "social security", "workers", "employment contract", "health and safety at work"],
    },
  },
  {
    area: "corporate",
    phrases: {
      es: [
        "sociedades de capital",
        "Registro Mercantil",
        "concurso de acreedores",
        "auditoría de cuentas",
        "ley concursal",
      ],
      en: ["company law", "insolvency proceedings", "statutory audit", "business register"],
    },
  },
  {
    area: "data-protection",
    phrases: {
      es: ["protección de datos", "datos personales", "Agencia Española de Protección de Datos"],
      en: ["personal data", "data protection", "data subject"],
    },
    titleOnly: true,
  },
  {
    area: "digital",
    phrases: {
      es: [
        "firma electrónica",
        "ciberseguridad",
        "servicios digitales",
        "telecomunicaciones",
        "derechos digitales",
        "inteligencia artificial",
      ],
      en: [
        "electronic identification",
        "trust services",
        "electronic signatures",
        "open internet",
        "roaming",
        "digital sector",
        "gatekeepers",
        "cybersecurity",
        "electronic communications",
      ],
    },
    titleOnly: true,
  },
  {
    area: "pharma",
    phrases: {
      es: [
        "medicamentos",
        "productos sanitarios",
        "Agencia Española de Medicamentos",
        "farmacovigilancia",
        "oficinas de farmacia",
      ],
      en: ["medicinal products", "medical devices", "pharmacovigilance"],
    },
  },
  {
    area: "health",
    phrases: {
      es: [
        "Salud Pública",
        "asistencia sanitaria",
        "tabaquismo",
        "Colegios Oficiales de Odontólogos",
        "seguridad alimentaria",
      ],
      en: ["public health", "COVID-19", "vaccination", "health care"],
    },
    titleOnly: true,
  },
  {
    area: "consumer",
    phrases: {
      es: [
        "consumidores",
        "defensa de la competencia",
        "unidad de mercado",
        "comercio, servicios y ferias",
        "arrendamiento de vivienda",
        "contratos de arrendamiento",
        "medidas en el alquiler",
      ],
      en: ["consumers", "end-users", "contestable and fair markets", "competition"],
    },
    titleOnly: true,
  },
  {
    area: "energy",
    phrases: {
      es: [
        "instalación eólica",
        "parque eólico",
        "fotovoltaica",
        "fotovoltaico",
        "energía eléctrica",
        "sector eléctrico",
        "sistema gasista",
        "gas natural",
        "Política Energética y Minas",
        "instalación eléctrica",
        "instalaciones eléctricas",
        "red eléctrica",
        "Central Hidroeléctrica",
        "productos petrolíferos",
        "residuos radiactivos",
        "sectores energéticos",
        "Industria, Energía y Minas",
        "Industria y Energía",
        "Ordenación Industrial, Energética y Minera",
        "permiso de exploración",
        "alta tensión",
        "utilidad pública",
      ],
      en: ["energy", "electricity", "natural gas", "renewable"],
    },
    titleOnly: true,
  },
  {
    area: "environment",
    phrases: {
      es: [
        "evaluación ambiental",
        "impacto ambiental",
        "Confederación Hidrográfica",
        "Demarcación Hidrográfica",
        "concesión de aguas",
        "aprovechamiento de aguas",
        "autorización de vertido",
        "dominio público marítimo-terrestre",
        "dominio público hidráulico",
        "Demarcación de Costas",
        "Costa y el Mar",
        "deslinde",
        "Comunidad de Regantes",
        "residuos",
        "contaminación",
        "saneamiento",
        "medioambiental",
      ],
      en: ["environment", "emissions", "waste", "climate"],
    },
    titleOnly: true,
    unless: ["residuos radiactivos"],
  },
  {
    area: "sustainability",
    phrases: {
      es: [
        "información no financiera",
        "información sobre sostenibilidad",
        "diligencia debida",
        "finanzas sostenibles",
      ],
      en: ["sustainability reporting", "non-financial information", "due diligence", "sustainable finance"],
    },
  },
  {
    area: "transport",
    phrases: {
      es: [
        "Autoridad Portuaria",
        "Sector Ferroviario",
        "Infraestructuras Ferroviarias",
        "Marina Mercante",
        "Transporte Sostenible",
        "movilidad eléctrica",
        "Carreteras del Estado",
        "buques",
        "practicaje",
        "estudio informativo",
      ],
      en: ["transport", "vehicles", "railway", "aviation", "maritime"],
    },
    titleOnly: true,
  },
  {
    area: "procurement",
    phrases: {
      es: ["anuncio de licitación", "formalización de contratos", "contratación del sector público"],
      en: ["public procurement", "public contracts"],
    },
    titleOnly: true,
  },
  {
    area: "grants",
    phrases: {
      es: [
        "subvención",
        "subvenciones",
        "extracto",
        "ayudas",
        "becas",
        "bases reguladoras",
        "Fondo Español de Garantía Agraria",
        "programa de incentivos",
      ],
      en: ["grants", "financial support", "funding programme"],
    },
    titleOnly: true,
  },
  {
    area: "justice",
    phrases: {
      es: [
        "recurso contencioso-administrativo",
        "inconstitucionalidad",
        "recurso de amparo",
        "notario",
        "Consejo General del Poder Judicial",
        "oficinas judiciales",
        "Registro de Fundaciones",
        "Registro de la Propiedad Intelectual",
        "Tribunal Superior de Justicia",
      ],
      en: ["judicial cooperation", "courts"],
    },
    titleOnly: true,
  },
  {
    area: "public-sector",
    phrases: {
      es: [
        "libre designación",
        "proveer",
        "plazas",
        "pruebas selectivas",
        "Catedrático",
        "Profesora Titular",
        "Profesor Titular",
        "plan de estudios",
        "extravío de título",
        "bien de interés cultural",
        "derecho de tanteo",
        "Fiesta Nacional",
        "prácticas académicas",
        "prácticas externas",
        "series documentales",
        "Presupuesto del Estado",
        "presupuestos generales",
        "Memoria Democrática",
        "Régimen Electoral",
        "elecciones",
        "partidos políticos",
        "Estatuto",
        "monedas de colección",
        "Patrimonio Nacional",
      ],
      en: ["civil service", "public administration"],
    },
    titleOnly: true,
  },
];
