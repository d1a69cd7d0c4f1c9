import { describe, expect, it } from "vitest";
import {
  areaIds,
  areasMatchingQuery,
  isAreaId,
  jurisdictionIds,
  kindIds,
  relevances,
  taxonomyResponse,
} from "./taxonomy.ts";

describe("taxonomy", () => {
  it("serves every area, jurisdiction and kind with names in both languages", () => {
    const body = taxonomyResponse();
    expect(body.areas.map((a) => a.id)).toEqual([...areaIds]);
    expect(body.jurisdictions.map((j) => j.id)).toEqual([...jurisdictionIds]);
    expect(body.kinds.map((k) => k.id)).toEqual([...kindIds]);
    expect(Object.keys(body)).toEqual(["areas", "jurisdictions", "kinds"]);
    expect(body.areas).toHaveLength(21);
    expect(body.areas.find((a) => a.id === "aml")?.name).toEqual({
      es: "Prevención del blanqueo",
      en: "Anti-money laundering",
    });
    for (const entry of [...body.areas, ...body.jurisdictions, ...body.kinds, ...relevances]) {
      expect(entry.name.es.length).toBeGreaterThan(0);
      expect(entry.name.en.length).toBeGreaterThan(0);
    }
  });

  it("finds areas from a query in either language, accent-insensitively", () => {
    expect(areasMatchingQuery("money laundering")).toEqual(["aml"]);
    expect(areasMatchingQuery("proteccion de datos")).toEqual(["data-protection"]);
    expect(areasMatchingQuery("ab")).toEqual([]);
    expect(isAreaId("banking")).toBe(true);
    expect(isAreaId("bank")).toBe(false);
  });
});
