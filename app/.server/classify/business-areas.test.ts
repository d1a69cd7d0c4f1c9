/**
 * One real recorded document of each business area, parsed from the fixtures as ingestion
 * would, pinned to its label and to the reasons a reader is shown. The labels are the
 * labelled set's (decided by reading); the recordings hold no document of payments, AML,
 * corporate or sustainability, so those four are checked on their own vocabulary below.
 */
import { describe, expect, it } from "vitest";
import { type AreaId, areas as taxonomyAreas } from "../../lib/taxonomy.ts";
import type { SourceDocument } from "../documents/types.ts";
import { classify } from "./classify.ts";
import { loadDocument, readLabelledSet } from "./labelled-set.ts";
import { businessAreas, taxonomyTermsLeftOut } from "./tables/keywords.ts";
import { fold } from "./text.ts";

const entries = new Map(readLabelledSet().map((entry) => [entry.sourceId, entry]));

function recorded(sourceId: string) {
  const entry = entries.get(sourceId);
  if (!entry) throw new Error(`${sourceId} is not in the labelled set`);
  return { entry, result: classify(loadDocument(entry)) };
}

interface Pin {
  area: AreaId;
  sourceId: string;
  what: string;
  /** Reasons (Spanish sentences) the area must carry. */
  reasons: string[];
  /** The whole set of areas when the classifier gets the reader's label exactly. */
  exact: boolean;
}

const pins: Pin[] = [
  {
    area: "banking",
    sourceId: "BOE-A-2018-16713",
    what: "Banco de España resolution",
    reasons: ["Departamento: BANCO DE ESPAÑA", "Palabra clave en el título: «Banco de España»"],
    exact: true,
  },
  {
    area: "securities",
    sourceId: "BOE-A-2022-4968",
    what: "CNMV resolution",
    reasons: [
      "Departamento: Comisión Nacional del Mercado de Valores",
      "Palabra clave en el título: «mercado de valores»",
    ],
    exact: true,
  },
  {
    area: "insurance",
    sourceId: "BOE-A-2022-16278",
    what: "correction of the occupational pension plans law",
    reasons: ["BOE materia 3229 «Entidades aseguradoras»", "Palabra clave en el título: «planes de pensiones»"],
    exact: true,
  },
  {
    area: "consumer",
    sourceId: "BOE-A-2018-16722",
    what: "Constitutional Court judgment on the market unity law",
    reasons: ["Palabra clave en el título: «unidad de mercado»"],
    exact: true,
  },
  {
    area: "data-protection",
    sourceId: "BOE-A-2018-16673",
    what: "Ley Orgánica 3/2018 (data protection and digital rights)",
    reasons: ["Palabra clave en el título: «protección de datos»"],
    exact: true,
  },
  {
    area: "digital",
    sourceId: "32014R0910",
    what: "eIDAS Regulation",
    reasons: ["Palabra clave en el título: «electronic identification»"],
    exact: true,
  },
  {
    area: "tax",
    sourceId: "BOE-A-2006-20764",
    what: "personal income tax law",
    reasons: [
      "BOE materia 4107 «Impuesto sobre la Renta de las Personas Físicas»",
      "BOE alerta 128 «Sistema tributario»",
    ],
    exact: true,
  },
  {
    area: "health",
    sourceId: "BOE-A-2026-20254",
    what: "Public Health directorate resolution on smoking",
    reasons: ["Departamento: MINISTERIO DE SANIDAD", "Palabra clave en el título: «tabaquismo»"],
    exact: true,
  },
  {
    area: "pharma",
    sourceId: "BOE-A-2002-13758#dasegunda",
    what: "e-commerce law, additional provision on medicines and medical devices",
    reasons: ["Palabra clave en el título: «medicamentos»"],
    // Read as pharma and digital; the classifier gives pharma and health.
    exact: false,
  },
  {
    area: "energy",
    sourceId: "BOE-A-2009-54",
    what: "order on the strategic oil reserves' fees",
    reasons: ["BOE materia 3069 «Distribución de energía»", "Palabra clave en el título: «productos petrolíferos»"],
    exact: true,
  },
  {
    area: "employment",
    sourceId: "BOE-A-2018-16677",
    what: "Social Security treasury resolution",
    reasons: ["Departamento: MINISTERIO DE TRABAJO, MIGRACIONES Y SEGURIDAD SOCIAL"],
    exact: true,
  },
];

describe("a recorded document of each business area", () => {
  it.each(pins)("$area: $sourceId ($what)", ({ area, sourceId, reasons, exact }) => {
    const { entry, result } = recorded(sourceId);
    expect(entry.areas).toContain(area);
    const label = result.areas.find((a) => a.id === area);
    expect(label, `${sourceId} should be labelled ${area}`).toBeDefined();
    expect(label?.reasons).toEqual(expect.arrayContaining(reasons));
    // Every reason is there in both languages for the UI.
    for (const explanation of label?.explanations ?? []) expect(explanation.en).toBeTruthy();
    if (exact) expect(result.areas.map((a) => a.id).sort()).toEqual([...entry.areas].sort());
  });
});

function titled(title: string, language: "es" | "en"): SourceDocument {
  return {
    source: language === "es" ? "boe" : "eurlex",
    sourceId: "X-1",
    language,
    title,
    titles: { [language]: title },
    publishedOn: "2026-04-07",
    effectiveDates: [],
    officialUrl: "https://example.org/x",
    links: {},
    subjects: [],
    alerts: [],
    eurovoc: [],
    directoryCodes: [],
    notes: [],
    relations: [],
    paragraphs: [{ kind: "paragraph", text: title }],
    provenance: [],
  };
}

describe("business areas without a recorded document", () => {
  // No recorded document of these areas exists; their evidence is the taxonomy's own names
  // and the legal terms of the keyword rules, checked here on titles that name them.
  const cases: { area: AreaId; es: string; en: string }[] = [
    {
      area: "payments",
      es: "Real Decreto por el que se regulan las entidades de pago y las entidades de dinero electrónico.",
      en: "Regulation on instant credit transfers and payment services.",
    },
    {
      area: "aml",
      es: "Orden por la que se regula la prevención del blanqueo de capitales y de la financiación del terrorismo.",
      en: "Directive on the prevention of money laundering and terrorist financing.",
    },
    {
      area: "corporate",
      es: "Real Decreto por el que se modifica el Reglamento del Registro Mercantil.",
      en: "Directive on insolvency proceedings and restructuring of companies.",
    },
    {
      area: "sustainability",
      es: "Ley sobre información no financiera y diligencia debida de las empresas.",
      en: "Directive on corporate sustainability reporting.",
    },
  ];
  it.each(cases)("$area is reached in Spanish and in English", ({ area, es, en }) => {
    for (const [text, language] of [
      [es, "es"],
      [en, "en"],
    ] as const) {
      const result = classify(titled(text, language));
      const label = result.areas.find((a) => a.id === area);
      expect(label, `${language}: ${text}`).toBeDefined();
      expect(label?.reasons.some((r) => r.startsWith("Palabra clave en el título"))).toBe(true);
    }
  });

  it("reaches each business area from each of its taxonomy names and search terms used in a title", () => {
    for (const id of businessAreas) {
      const area = taxonomyAreas.find((a) => a.id === id);
      if (!area) throw new Error(id);
      for (const language of ["es", "en"] as const) {
        const terms = [...area.name[language].split(/ (?:y|e|and) /), ...area.searchTerms[language]];
        for (const term of terms) {
          if (taxonomyTermsLeftOut.has(fold(term))) continue;
          const result = classify(titled(`Norma sobre ${term}`, language));
          expect(
            result.areas.map((a) => a.id),
            `${language}: «${term}»`,
          ).toContain(id);
        }
      }
    }
  });

  it("reaches consumer from competition law, which no recorded document names", () => {
    // "Consumo y competencia": the area's second half has its own institutions in each language.
    const cases = [
      [
        "Resolución de la CNMC en el expediente por abuso de posición dominante en la distribución de carburantes.",
        "es",
      ],
      ["Real Decreto por el que se regula el control de concentraciones económicas.", "es"],
      ["Resolución sobre la autorización de concentraciones empresariales en el sector eléctrico.", "es"],
      ["Resolución sancionadora por conductas colusorias en licitaciones de obra pública.", "es"],
      ["Commission Decision on anti-competitive agreements in the market for automotive parts.", "en"],
      ["Regulation on the control of concentrations and merger control procedures.", "en"],
      ["Decision finding an abuse of a dominant position in online search.", "en"],
    ] as const;
    for (const [text, language] of cases) {
      const result = classify(titled(text, language));
      expect(
        result.areas.map((a) => a.id),
        `${language}: ${text}`,
      ).toContain("consumer");
    }
    // Words that look like competition law and are not: the authorities that have competence,
    // posters ("carteles"), concentrations of pollutants, drug cartels.
    for (const [text, language] of [
      ["Orden por la que se designan las autoridades competentes en materia de sanidad vegetal.", "es"],
      ["Orden por la que se regulan los carteles de señalización de las obras financiadas.", "es"],
      ["Resolución del concurso del cartel anunciador de las fiestas patronales.", "es"],
      ["Real Decreto sobre el control de las concentraciones de ozono en el aire ambiente.", "es"],
      ["Council conclusions on the fight against drug cartels and organised crime.", "en"],
    ] as const) {
      expect(
        classify(titled(text, language)).areas.map((a) => a.id),
        `${language}: ${text}`,
      ).not.toContain("consumer");
    }
  });

  it("leaves out the taxonomy words that mean something else in legal texts", () => {
    // "impuesta" (imposed) is not a tax, "Fiscal" here is the public prosecutor.
    const sanction = classify(
      titled("Resolución por la que se publica la sanción por infracción muy grave impuesta a una entidad.", "es"),
    );
    expect(sanction.areas.map((a) => a.id)).not.toContain("tax");
    const prosecutor = classify(titled("Real Decreto por el que se nombra Fiscal de Sala del Tribunal Supremo.", "es"));
    expect(prosecutor.areas.map((a) => a.id)).not.toContain("tax");
  });
});

describe("publishers' codes for the business areas", () => {
  it("maps EuroVoc concepts by their id, whatever the language of the label the source gave", () => {
    const doc = titled("Regulation of the European Parliament and of the Council", "en");
    const result = classify({
      ...doc,
      // A label no fragment of the label table knows: the concept's id decides.
      eurovoc: [{ code: "http://eurovoc.europa.eu/5465", label: "lavado de dinero" }],
    });
    expect(result.areas[0]).toMatchObject({ id: "aml", reasons: ["EuroVoc 5465 «lavado de dinero»"] });
  });

  it("maps the BOE materias of the reference table that name a business area", () => {
    const doc = titled("Resolución de 1 de abril de 2026, de la Dirección General.", "es");
    const result = classify({
      ...doc,
      section: "3",
      subjects: [{ code: "7854", label: "Protección de datos personales" }],
    });
    expect(result.areas[0]).toMatchObject({
      id: "data-protection",
      reasons: ["BOE materia 7854 «Protección de datos personales»"],
    });
  });
});
