import { describe, expect, it } from "vitest";
import { defineSource } from "./plugin.ts";
import { registeredSourceIds, registerSource, selectableSourceIds, sourceChoices } from "./registry.ts";

const plugin = (id: string) =>
  defineSource({
    id,
    labels: { es: "Prueba", en: "Test" },
    selectable: true,
    parsers: [],
    plan: () => ({ queues: [], schedules: [], runNow: async () => null }),
  });

describe("the sources registry", () => {
  it("lists the built-in sources in order, and what INGEST_SOURCES may name", () => {
    expect(registeredSourceIds()).toEqual(["boe", "eurlex", "feed", "boe-laws", "eu-laws", "law-catalogue"]);
    expect(selectableSourceIds()).toEqual({ all: ["boe", "eurlex"], byDefault: ["boe", "eurlex"] });
    expect(sourceChoices("en")).toEqual([
      { id: "boe", label: "BOE" },
      { id: "eurlex", label: "EUR-Lex" },
      { id: "feed", label: "RSS/Atom feed" },
    ]); // not the followed laws' sources: they store no documents to filter
  });

  it("adds a source at run time, refuses an id twice, and removes it", () => {
    const remove = registerSource(plugin("extra-one"));
    try {
      expect(registeredSourceIds()).toEqual([
        "boe",
        "eurlex",
        "feed",
        "boe-laws",
        "eu-laws",
        "law-catalogue",
        "extra-one",
      ]);
      expect(() => registerSource(plugin("extra-one"))).toThrow('source "extra-one" is registered twice');
      expect(() => registerSource(plugin("boe"))).toThrow('source "boe" is registered twice');
    } finally {
      remove();
    }
    expect(registeredSourceIds()).toEqual(["boe", "eurlex", "feed", "boe-laws", "eu-laws", "law-catalogue"]);
  });

  it("refuses an id that cannot name queues, variables and URLs", () => {
    expect(() => plugin("Bad Id")).toThrow(/must be lowercase letters, digits and dashes/);
    expect(() => plugin("x")).toThrow(/must be lowercase letters, digits and dashes/);
  });
});
