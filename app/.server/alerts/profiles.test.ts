import { describe, expect, it } from "vitest";
import {
  type FilterSet,
  filtersOf,
  type MatchableDocument,
  matches,
  parseQuery,
  previewMatches,
  profileInputSchema,
} from "./profiles.ts";

const doc: MatchableDocument = {
  id: "00000000-0000-4000-8000-000000000001",
  source: "boe",
  title: "Real Decreto sobre prevención del BLANQUEO de capitales",
  text: "Modifica la Ley 10/2010 de prevención.",
  jurisdiction: "ES",
  kind: "royal-decree",
  relevance: "medium",
  areas: [{ id: "aml" }, { id: "banking" }],
};
const any: FilterSet = { areas: [], jurisdictions: [], kinds: [], sources: [], minRelevance: 0 };

describe("matches", () => {
  it("matches on every set filter and says why", () => {
    const result = matches(
      { ...any, areas: ["aml"], jurisdictions: ["ES"], kinds: ["royal-decree"], sources: ["boe"] },
      doc,
    );
    expect(result.matched).toBe(true);
    expect(result.reasons).toEqual(["area:aml", "jurisdiction:ES", "kind:royal-decree", "source:boe"]);
  });
  it("rejects on any failing filter", () => {
    expect(matches({ ...any, areas: ["tax"] }, doc).matched).toBe(false);
    expect(matches({ ...any, jurisdictions: ["EU"] }, doc).matched).toBe(false);
    expect(matches({ ...any, kinds: ["law"] }, doc).matched).toBe(false);
    expect(matches({ ...any, sources: ["eurlex"] }, doc).matched).toBe(false);
  });
  it("orders relevance high > medium > low", () => {
    expect(matches({ ...any, minRelevance: 1 }, doc).matched).toBe(true);
    expect(matches({ ...any, minRelevance: 2 }, doc).matched).toBe(true);
    expect(matches({ ...any, minRelevance: 3 }, doc).matched).toBe(false);
  });
  it("finds keywords accent- and case-insensitively as whole words, over title and text", () => {
    expect(matches({ ...any, keywords: ["blanqueo de capitales"] }, doc).reasons).toEqual([
      "keywords:blanqueo de capitales",
    ]);
    expect(matches({ ...any, keywords: ["Prevencion"] }, doc).matched).toBe(true);
    expect(matches({ ...any, keywords: ["10/2010"] }, doc).matched).toBe(true);
    expect(matches({ ...any, keywords: ["blanq"] }, doc).matched).toBe(false);
    expect(matches({ ...any, query: "ley decreto" }, doc).matched).toBe(true);
    expect(matches({ ...any, query: "ley directiva" }, doc).matched).toBe(false);
  });
});

describe("a saved query reads the search box's syntax", () => {
  const q = (query: string) => matches({ ...any, query }, doc).matched;
  it("keeps phrases whole, in order", () => {
    expect(q('"blanqueo de capitales"')).toBe(true);
    expect(q('"capitales de blanqueo"')).toBe(false);
  });
  it("leaves out documents holding an excluded word or phrase (it used to require them)", () => {
    expect(q("blanqueo -sanciones")).toBe(true);
    expect(q("blanqueo -prevencion")).toBe(false);
    expect(q('blanqueo -"ley 10 2010"')).toBe(false);
  });
  it("reads OR between alternatives, each group still required", () => {
    expect(q("directiva OR decreto")).toBe(true);
    expect(q("directiva or reglamento")).toBe(false);
    expect(q("directiva OR decreto blanqueo")).toBe(true);
    expect(q("directiva OR decreto terrorismo")).toBe(false);
  });
  it("reads word* as a prefix and a bare word as a whole word", () => {
    expect(q("blanq*")).toBe(true);
    expect(q("blanq")).toBe(false);
  });
  it("parses into groups and exclusions", () => {
    expect(parseQuery('"Protección de datos" -sanción a OR b financ*')).toEqual({
      groups: [
        [{ text: "proteccion de datos", prefix: false, typed: "Protección de datos" }],
        [
          { text: "a", prefix: false, typed: "a" },
          { text: "b", prefix: false, typed: "b" },
        ],
        [{ text: "financ", prefix: true, typed: "financ" }],
      ],
      excluded: [{ text: "sancion", prefix: false, typed: "sanción" }],
    });
  });
});

describe("profileInputSchema", () => {
  it("accepts a user profile with defaults", () => {
    const parsed = profileInputSchema("es").parse({ name: " AML ", userId: "u1", areas: ["aml"] });
    expect(parsed).toMatchObject({
      name: "AML",
      email: "off",
      timeZone: "Europe/Madrid",
      language: "es",
      muted: false,
    });
  });
  it("rejects unknown ids and bad chat URLs with messages in the user's language", () => {
    const es = profileInputSchema("es").safeParse({
      name: "x",
      groupId: "g",
      areas: ["nope"],
      chatWebhookUrl: "http://127.0.0.1/x",
    });
    expect(es.success).toBe(false);
    const fields = es.error?.flatten().fieldErrors as Record<string, string[]>;
    expect(fields.areas?.[0]).toBe("Área desconocida.");
    expect(fields.chatWebhookUrl?.[0]).toMatch(/Slack o Microsoft Teams/);
    const en = profileInputSchema("en").safeParse({ name: "x", userId: "u", groupId: "g", timeZone: "Mars/Base" });
    const enFields = en.error?.flatten().fieldErrors as Record<string, string[]>;
    expect(enFields.groupId?.[0]).toBe("A profile belongs to a user or to a group, not both.");
    expect(enFields.timeZone?.[0]).toBe("Unknown time zone.");
  });
});

describe("previewMatches", () => {
  it("lists the recent documents a profile would have matched, newest first", () => {
    const filters = filtersOf(
      profileInputSchema("en").parse({ name: "p", userId: "u", areas: ["aml"], minRelevance: "medium" }),
    );
    const older = { ...doc, id: "a", publishedOn: "2026-11-01" };
    const newer = { ...doc, id: "b", publishedOn: "2026-11-20" };
    const low = { ...doc, id: "c", relevance: "low" as const, publishedOn: "2026-11-21" };
    const other = { ...doc, id: "d", areas: [{ id: "tax" }], publishedOn: "2026-11-22" };
    const preview = previewMatches(filters, [older, low, newer, other]);
    expect(preview.total).toBe(2);
    expect(preview.items.map((i) => i.document.id)).toEqual(["b", "a"]);
    expect(previewMatches(filters, [older, newer], 1).items).toHaveLength(1);
  });
});
