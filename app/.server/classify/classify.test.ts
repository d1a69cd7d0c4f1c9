import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Classify } from "../documents/store.ts";
import type { SourceDocument } from "../documents/types.ts";
import { parseBoeDocument } from "../sources/boe/document.ts";
import { classifierVersion, classify } from "./classify.ts";
import { documentText } from "./document-text.ts";
import { allRecordedDocuments, fixturesRoot, withBoeMetadata } from "./labelled-set.ts";
import { modelFeatures, trainModel } from "./model.ts";

function boe(partial: Partial<SourceDocument> & { title: string }): SourceDocument {
  return {
    source: "boe",
    sourceId: "BOE-A-2026-1",
    language: "es",
    titles: { es: partial.title },
    publishedOn: "2026-04-07",
    effectiveDates: [],
    officialUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2026-1",
    links: {},
    section: "3",
    subjects: [],
    alerts: [],
    eurovoc: [],
    directoryCodes: [],
    notes: [],
    relations: [],
    paragraphs: [{ kind: "paragraph", text: partial.title }],
    provenance: [],
    ...partial,
  };
}

const areaIds = (doc: SourceDocument, options?: Parameters<typeof classify>[1]) =>
  classify(doc, options).areas.map((a) => a.id);
const area = (doc: SourceDocument, id: string, options?: Parameters<typeof classify>[1]) =>
  classify(doc, options).areas.find((a) => a.id === id);

describe("areas: publishers' codes", () => {
  it("maps a BOE materia to its area with the materia as the reason", () => {
    const doc = boe({
      title: "Resolución de 1 de abril de 2026, de la Subsecretaría, sobre la información reservada.",
      subjects: [{ code: "3233", label: "Entidades de crédito" }],
    });
    const banking = area(doc, "banking", { model: null });
    expect(banking?.reasons).toContain("BOE materia 3233 «Entidades de crédito»");
    expect(banking?.explanations[0]).toMatchObject({ code: "materia", en: "BOE subject 3233 «Entidades de crédito»" });
  });

  it("maps a supervisor's department by code and by name", () => {
    const byCode = boe({
      title: "Resolución de la Comisión sobre la sanción impuesta.",
      department: { code: "1040", label: "COMISIÓN NACIONAL DEL MERCADO DE VALORES" },
    });
    expect(area(byCode, "securities", { model: null })?.reasons).toContain(
      "Departamento: COMISIÓN NACIONAL DEL MERCADO DE VALORES",
    );
    const byName = boe({
      title: "Resolución por la que se publica la sanción.",
      department: { code: "", label: "Banco de España" },
    });
    expect(areaIds(byName, { model: null })).toEqual(["banking"]);
  });

  it("keeps section V-A to procurement only, whatever is bought", () => {
    const doc = boe({
      title: "Anuncio de licitación de: ADIF. Objeto: Suministro de energía eléctrica para la red de alta tensión.",
      section: "5A",
    });
    const result = classify(doc);
    expect(result.areas.map((a) => a.id)).toEqual(["procurement"]);
    expect(result.areas[0]?.reasons).toEqual(["Sección BOE 5A «V.A. Contratación del Sector Público»"]);
  });

  it("parses a real Banco de España circular and labels it from its codes", () => {
    const xml = readFileSync(path.join(fixturesRoot, "boe/diario_boe/xml.php/BOE-A-2021-21666.xml"), "utf8");
    const result = classify(withBoeMetadata(parseBoeDocument(xml), xml));
    expect(result.areas[0]?.id).toBe("banking");
    expect(result.areas[0]?.reasons).toEqual(
      expect.arrayContaining(["Departamento: Banco de España", "BOE materia 449 «Banco de España»"]),
    );
    expect(result).toMatchObject({ jurisdiction: "ES", kind: "circular", relevance: "high" });
  });
});

describe("areas: keyword rules", () => {
  it("matches stemmed and accent-insensitive phrases in the title", () => {
    const doc = boe({ title: "Orden por la que se regula la prevencion del BLANQUEO de capital en las entidades." });
    const aml = area(doc, "aml", { model: null });
    expect(aml?.reasons).toContain("Palabra clave en el título: «blanqueo de capitales»");
  });

  it("reads only the subject of an agreement, not its parties' names", () => {
    const doc = boe({
      title:
        "Resolución por la que se publica el Convenio con la Autoridad Portuaria de Bilbao, para la asistencia jurídica.",
    });
    expect(areaIds(doc, { model: null })).toEqual(["public-sector"]);
  });

  it("does not apply Spanish phrases' English twins to Spanish text", () => {
    const doc = boe({
      title: "Anuncio de la Demarcación de Costas sobre el dominio público marítimo-terrestre.",
      section: "5B",
    });
    expect(areaIds(doc, { model: null })).toEqual(["environment"]);
  });
});

describe("areas: model", () => {
  it("labels from the model alone when codes and keywords say nothing, with the score as the reason", () => {
    const train = (title: string, areas: ("health" | "tax")[]) => {
      const doc = boe({ title });
      return { features: modelFeatures(doc, documentText(doc)), areas };
    };
    const model = trainModel([
      train("Resolución sobre cribados neonatales temporada", ["health"]),
      train("Resolución sobre cribados infantiles calendario", ["health"]),
      train("Resolución sobre cribados y campañas", ["health"]),
      train("Resolución sobre recaudación ejecutiva municipal", ["tax"]),
      train("Resolución sobre recaudación voluntaria plazos", ["tax"]),
    ]);
    const result = classify(boe({ title: "Resolución sobre cribados para mayores" }), { model });
    expect(result.areas[0]?.id).toBe("health");
    expect(result.areas[0]?.reasons[0]).toMatch(/^Modelo: 0,\d\d$/);
    expect(result.areas[0]?.explanations[0]?.en).toMatch(/^Model: 0\.\d\d$/);
  });

  it("falls back to public-sector with a reason when nothing points elsewhere", () => {
    const result = classify(boe({ title: "Resolución de la Subsecretaría sobre el calendario." }), { model: null });
    expect(result.areas).toEqual([
      expect.objectContaining({ id: "public-sector", reasons: ["Asunto público sin otra área específica"] }),
    ]);
  });
});

describe("organisation topics", () => {
  it("returns matched topics separately, with the keyword as the reason, leaving the areas alone", () => {
    const doc = boe({ title: "Real Decreto por el que se regula la producción de hidrogeno verde.", section: "1" });
    const topics = [
      { id: "t-h2", name: "Hidrógeno", keywords: ["hidrógeno verde"], area: "energy" as const },
      { id: "t-none", name: "Ferrocarril", keywords: ["ferrocarril"] },
    ];
    const withTopics = classify(doc, { topics, model: null });
    expect(withTopics.topics).toEqual([
      expect.objectContaining({
        id: "t-h2",
        area: "energy",
        reasons: ["Tema «Hidrógeno»: palabra clave «hidrógeno verde»"],
      }),
    ]);
    expect(withTopics.areas).toEqual(classify(doc, { model: null }).areas);
    expect(classify(doc, { model: null }).topics).toEqual([]);
  });

  it("matches a party named in an agreement's title, which the areas leave out", () => {
    // The areas read only the subject after "para"; an organisation following its own name
    // (or a counterpart's) must still find the agreement.
    const doc = boe({
      title:
        "Resolución de 3 de marzo de 2025, de la Subsecretaría, por la que se publica el Convenio entre la Autoridad Portuaria de Vigo y Navantia, para la formación de aprendices.",
      section: "3",
    });
    const topics = [{ id: "t-port", name: "Puertos", keywords: ["autoridad portuaria"] }];
    expect(classify(doc, { topics, model: null }).topics).toEqual([
      expect.objectContaining({ id: "t-port", reasons: ["Tema «Puertos»: palabra clave «autoridad portuaria»"] }),
    ]);
  });
});

describe("jurisdiction", () => {
  it("gives a local body's document to its community", () => {
    const doc = boe({
      title:
        "Resolución de 26 de febrero de 2025, del Ayuntamiento de La Nucia (Alicante/Alacant), referente a la convocatoria para proveer una plaza.",
      section: "2B",
      department: { code: "9525", label: "ADMINISTRACIÓN LOCAL" },
    });
    expect(classify(doc).jurisdiction).toBe("ES-VC");
    const council = boe({
      title: "Resolución de la Diputación Provincial de Zamora, referente a la convocatoria.",
      department: { code: "9525", label: "ADMINISTRACIÓN LOCAL" },
    });
    expect(classify(council).jurisdiction).toBe("ES-CL");
  });

  it("gives a regional department's law to its community, and State bodies and courts to ES", () => {
    const law = boe({
      title: "Ley 12/2025, de comercio.",
      section: "1",
      department: { code: "8070", label: "COMUNIDAD AUTÓNOMA DE CATALUÑA" },
    });
    expect(classify(law)).toMatchObject({
      jurisdiction: "ES-CT",
      jurisdictionReason: "Departamento autonómico: COMUNIDAD AUTÓNOMA DE CATALUÑA",
    });
    const university = boe({
      title: "Resolución de la Universidad Nacional de Educación a Distancia, por la que se nombra Profesora.",
      department: { code: "310", label: "UNIVERSIDADES" },
    });
    expect(classify(university).jurisdiction).toBe("ES");
    const court = boe({
      title: "MURCIA",
      section: "4",
      department: { code: "9571", label: "SERVICIOS COMUNES PROCESALES" },
    });
    expect(classify(court).jurisdiction).toBe("ES");
    const office = boe({
      title: "Anuncio de la Subdelegación del Gobierno en Bizkaia.",
      section: "5B",
      department: { code: "9593", label: "MINISTERIO DE POLÍTICA TERRITORIAL" },
    });
    expect(classify(office).jurisdiction).toBe("ES");
  });

  it("reads a region from its BOE department code, its names with their article, and the journal a local notice cites", () => {
    // The code alone (a department whose name the tables do not know) gives the community.
    const byCode = boe({ title: "Decreto 3/2026, de turismo.", section: "1", department: { code: "8030", label: "" } });
    expect(classify(byCode).jurisdiction).toBe("ES-CN");
    const local = { code: "9525", label: "ADMINISTRACIÓN LOCAL" };
    const universities = { code: "310", label: "UNIVERSIDADES" };
    // The article is part of the name: "de La Rioja", "de Las Palmas de Gran Canaria".
    for (const [title, id] of [
      ["Resolución de la Universidad de La Rioja, por la que se convoca proceso selectivo.", "ES-RI"],
      ["Anuncio de la Universidad de Las Palmas de Gran Canaria sobre extravío de título universitario.", "ES-CN"],
    ] as const) {
      expect(classify(boe({ title, section: "2B", department: universities })).jurisdiction).toBe(id);
    }
    const ceuta = boe({
      title:
        "Resolución de la Ciudad de Ceuta, Organismo Autónomo Servicios Tributarios de Ceuta, referente a la convocatoria.",
      section: "2B",
      department: local,
    });
    expect(classify(ceuta).jurisdiction).toBe("ES-CE");
    const island = boe({
      title: "Resolución del Cabildo Insular de Lanzarote, referente a la convocatoria.",
      department: local,
    });
    expect(classify(island).jurisdiction).toBe("ES-CN");
    const cited = boe({
      title: "Resolución del Consorcio de Aguas Sierra Norte, referente a la convocatoria para proveer una plaza.",
      department: local,
      paragraphs: [
        {
          kind: "paragraph",
          text: "En el «Boletín Oficial de la Comunidad de Madrid» número 80, de 3 de abril de 2026, se han publicado las bases.",
        },
      ],
    });
    expect(classify(cited).jurisdiction).toBe("ES-MD");
  });
});

describe("kind", () => {
  it("is a correction only when the title starts with Corrección de errores", () => {
    expect(classify(boe({ title: "Corrección de errores de la Ley 35/2006, del Impuesto.", section: "1" })).kind).toBe(
      "correction",
    );
    expect(
      classify(boe({ title: "Resolución del Consejo, por la que se corrigen errores en la Instrucción IS-10." })).kind,
    ).toBe("resolution");
  });

  it("quotes the title's own opening words, accents and capitals kept, as the kind's reason", () => {
    const organic = classify(
      boe({ title: "Ley Orgánica 3/2018, de 5 de diciembre, de Protección de Datos.", section: "1" }),
    );
    expect(organic.kind).toBe("organic-law");
    expect(organic.kindReason).toBe("El título empieza por «Ley Orgánica»");
    expect(organic.kindReasonEn).toBe("The title starts with «Ley Orgánica»");
    const ruling = classify(boe({ title: "Sala Segunda. Sentencia 12/2024, de 8 de enero.", section: "T" }));
    expect(ruling.kindReason).toBe("El título empieza por «Sentencia»");
  });

  it("makes every section V item an announcement and reads Constitutional Court titles", () => {
    expect(
      classify(
        boe({ title: "Resolución de la Autoridad Portuaria de Málaga de otorgamiento de concesión.", section: "5B" }),
      ).kind,
    ).toBe("announcement");
    expect(classify(boe({ title: "Pleno. Sentencia 119/2018, de 31 de octubre.", section: "T" })).kind).toBe("ruling");
    expect(classify(boe({ title: "Real Decreto-ley 27/2026, de medidas urgentes.", section: "1" })).kind).toBe(
      "decree-law",
    );
  });
});

describe("relevance", () => {
  const rel = (title: string, section: string, partial: Partial<SourceDocument> = {}) =>
    classify(boe({ title, section, ...partial })).relevance;
  it("makes a section III act that sets duties or limits on third parties medium, and an agreement between bodies low", () => {
    expect(
      rel(
        "Orden TED/215/2025, por la que se establecen servicios mínimos en el sector eléctrico durante la huelga.",
        "3",
      ),
    ).toBe("medium");
    expect(
      rel(
        "Resolución de la Secretaría General de Pesca, por la que se establecen las cuotas iniciales por especie.",
        "3",
      ),
    ).toBe("medium");
    expect(
      rel(
        "Resolución de la Confederación Hidrográfica, sobre limitaciones y condiciones al ejercicio de la navegación.",
        "3",
      ),
    ).toBe("medium");
    expect(
      rel("Resolución de la Dirección General, por la que se fijan los requisitos técnicos de los equipos.", "3"),
    ).toBe("medium");
    expect(
      rel(
        "Resolución de la Subsecretaría, por la que se publica el Convenio con el Ayuntamiento, por el que se fijan las condiciones de la cesión.",
        "3",
      ),
    ).toBe("low");
    expect(
      rel(
        "Resolución de la Subsecretaría, por la que se aprueba la ampliación del calendario de conservación de series documentales.",
        "3",
      ),
    ).toBe("low");
  });
  it("follows the section and the instrument", () => {
    expect(rel("Ley 9/2018, de 5 de diciembre, de evaluación ambiental.", "1")).toBe("high");
    expect(
      rel("Real Decreto 763/2026, por el que se regula la concesión directa de una subvención a la Fundación.", "1"),
    ).toBe("medium");
    expect(rel("Real Decreto 263/2026, por el que se aprueba el Estatuto del Centro.", "1")).toBe("medium");
    expect(rel("Corrección de errores del Real Decreto-ley 6/2022.", "1")).toBe("low");
    expect(
      rel(
        "Resolución de la Dirección General de Trabajo, por la que se registra y publica el VI Convenio colectivo de Servicios.",
        "3",
      ),
    ).toBe("medium");
    expect(rel("Resolución por la que se publica el Convenio con la Universidad, para prácticas.", "3")).toBe("low");
    expect(rel("Resolución por la que se nombra Catedrático.", "2A")).toBe("low");
    expect(rel("Pleno. Sentencia 120/2018. Cuestión de inconstitucionalidad 6412-2015.", "T")).toBe("medium");
    expect(rel("Sala Primera. Sentencia 114/2018. Recurso de amparo 4487-2017.", "T")).toBe("low");
  });

  it("makes EU regulations and directives high and implementing decisions medium", () => {
    const eu = (rank: string) =>
      classify(
        boe({
          source: "eurlex",
          sourceId: "32016R0679",
          language: "en",
          title: "Regulation (EU) 2016/679 on personal data",
          section: undefined,
          rank: { code: rank, label: rank },
        }),
      );
    expect(eu("REG")).toMatchObject({ relevance: "high", kind: "regulation", jurisdiction: "EU" });
    expect(eu("DEC_IMPL")).toMatchObject({ relevance: "medium", kind: "decision" });
  });
});

describe("ingestion hook", () => {
  it("fits the store's classify hook as it is", async () => {
    const hook: Classify = classify;
    const stored = await hook(boe({ title: "Ley 9/2018, de evaluación ambiental.", section: "1" }));
    expect(stored).toMatchObject({
      kind: "law",
      relevance: "high",
      areas: [expect.objectContaining({ id: "environment" })],
    });
  });
});

describe("classifierVersion", () => {
  it("is a stable hash carried by every classification", () => {
    const version = classifierVersion();
    expect(version).toMatch(/^cls-[0-9a-f]{16}$/);
    expect(classify(boe({ title: "Resolución." })).classifierVersion).toBe(version);
  });
});

describe("every recorded document", () => {
  it("gets one to three areas, each with a reason, and a jurisdiction, kind and relevance with reasons", () => {
    let count = 0;
    for (const doc of allRecordedDocuments()) {
      const result = classify(doc);
      count++;
      expect(result.areas.length, doc.sourceId).toBeGreaterThanOrEqual(1);
      expect(result.areas.length, doc.sourceId).toBeLessThanOrEqual(3);
      for (const label of result.areas) expect(label.reasons.length, `${doc.sourceId} ${label.id}`).toBeGreaterThan(0);
      expect(result.jurisdictionReason && result.kindReason && result.relevanceReason, doc.sourceId).toBeTruthy();
    }
    expect(count).toBeGreaterThan(1200);
  }, 60_000);
});
