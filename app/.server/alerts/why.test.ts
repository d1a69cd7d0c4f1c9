/** Why an alert was sent (decision 0148): what matching knew, in the recipient's words. */
import { describe, expect, it } from "vitest";
import { type FilterSet, type MatchableDocument, matches } from "./profiles.ts";
import { documentWhy, followWhy, readWhy, whyForWebhook, whyText } from "./why.ts";

const doc = {
  id: "00000000-0000-4000-8000-000000000001",
  source: "boe",
  title: "Circular sobre la solvencia de las entidades de crédito",
  text: "Requisitos de capital y solvencia.",
  jurisdiction: "ES",
  kind: "circular",
  relevance: "high",
  areas: [
    {
      id: "banking",
      reasons: ["Palabra clave en el título: «entidades de crédito»"],
      explanations: [
        {
          es: "Palabra clave en el título: «entidades de crédito»",
          en: "Keyword in the title: «entidades de crédito»",
        },
      ],
    },
    { id: "aml", reasons: ["corrected by the organisation"] },
  ],
} as unknown as MatchableDocument;

const none: FilterSet = { areas: [], jurisdictions: [], kinds: [], sources: [], minRelevance: 0 };

describe("why an alert was sent", () => {
  it("names the profile, the areas with their evidence and the terms found, in Spanish and English", () => {
    const filters = { ...none, areas: ["banking", "aml", "tax"], keywords: ["capital"], query: "Solvencia, crédito" };
    const result = matches(filters, doc);
    expect(result.matched).toBe(true);
    expect(result.hits).toEqual({ areas: ["banking", "aml"], terms: ["capital", "Solvencia", "crédito"] });
    const why = documentWhy("profile", filters, result.hits, doc, { id: "p1", name: "Banca", groupId: null });
    expect(whyText(why, "es")).toBe(
      "Coincide con tu perfil «Banca»: área Banca y entidades de crédito (palabra clave en el título: «entidades de crédito»); área Prevención del blanqueo (añadida por tu organización); términos: «capital», «Solvencia», «crédito»",
    );
    expect(whyText(why, "en", "Banking (renamed)")).toBe(
      "Matches your profile “Banking (renamed)”: area Banking and credit institutions (keyword in the title: «entidades de crédito»); area Anti-money laundering (added by your organisation); terms: “capital”, “Solvencia”, “crédito”",
    );
    // Stored as JSON and read back, it says the same.
    expect(whyText(readWhy(JSON.parse(JSON.stringify(why))) ?? why, "es")).toBe(whyText(why, "es"));
  });

  it("says a group profile and the other filters, and a profile that takes everything", () => {
    const filters = { ...none, kinds: ["circular"], jurisdictions: ["ES"], minRelevance: 3 };
    const why = documentWhy("profile", filters, matches(filters, doc).hits, doc, {
      id: "p2",
      name: "Todo",
      groupId: "g1",
    });
    expect(whyText(why, "es")).toBe(
      "Coincide con el perfil de grupo «Todo»: tipo: Circular; ámbito: España (Estado); relevancia alta",
    );
    const all = documentWhy("profile", none, matches(none, doc).hits, doc, { id: "p3", name: "Todo", groupId: null });
    expect(whyText(all, "en")).toBe("Matches your profile “Todo”, which receives everything published");
  });

  it("names the followed law and the articles that changed or that an act amends", () => {
    const profile = { id: "f1", name: "Subvenciones", groupId: null };
    const law = { id: "BOE-A-2003-20977", title: "Ley 38/2003, de 17 de noviembre, General de Subvenciones" };
    const changed = followWhy(profile, { ...law, change: "consolidated" }, [{ id: "a13", title: "Artículo 13" }]);
    expect(whyText(changed, "es")).toBe(
      "Sigues «Ley 38/2003, de 17 de noviembre, General de Subvenciones» («Subvenciones»): ha cambiado Artículo 13",
    );
    const announced = followWhy(
      { ...profile, name: law.title, groupId: "g1" },
      { ...law, change: "announced", act: "BOE-A-2024-1234" },
      [{ id: "a13", title: "Artículo 13" }],
    );
    expect(whyText(announced, "en")).toBe(
      "Your group follows “Ley 38/2003, de 17 de noviembre, General de Subvenciones”: BOE-A-2024-1234 amends Artículo 13",
    );
    expect(whyForWebhook(announced)).toMatchObject({
      via: "follow",
      law: { act: "BOE-A-2024-1234", articles: [{ id: "a13" }] },
      text: { en: whyText(announced, "en"), es: whyText(announced, "es") },
    });
  });

  it("reads nothing from an old or malformed stored why", () => {
    expect(readWhy(null)).toBeUndefined();
    expect(readWhy(["area:aml"])).toBeUndefined();
    expect(readWhy({ via: "nope" })).toBeUndefined();
  });
});
