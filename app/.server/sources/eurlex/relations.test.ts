/**
 * EU acts' amended, repealed and corrected acts (issue 39): the query's answer read into relations,
 * and the "what this act changes" lines they give. Over the recorded Cellar answers first: every
 * recorded act with such relations gives its lines (the recordings hold none, and the test says what
 * they hold instead); then the answer's shape as Cellar gives it for a query of these variables.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { changeLines } from "../../documents/changes.ts";
import { sourcesFixturesDir } from "../../fixtures-path.ts";
import { SourceParseError } from "../errors.ts";
import { cellarRelationsQuery, euActCitation, euRelationsOf, parseCellarRelations } from "./relations.ts";

const sparqlDir = path.join(sourcesFixturesDir, "cellar/sparql");
const recorded = readdirSync(sparqlDir)
  .filter((file) => file.endsWith(".json"))
  .map((file) => ({ celex: file.replace(/\.json$/, ""), body: readFileSync(path.join(sparqlDir, file), "utf8") }));

/** The relation rows of a recorded answer, read with no code of ours: bindings that hold relation and target. */
function rawRelations(body: string): Array<{ celex: string; relation: string; target: string }> {
  const parsed = JSON.parse(body.replace(/^\uFEFF/, "")) as {
    results: { bindings: Array<Record<string, { value: string }>> };
  };
  return parsed.results.bindings
    .filter((b) => b.relation && b.target && b.celex)
    .map((b) => ({ celex: b.celex!.value, relation: b.relation!.value, target: b.target!.value }));
}

describe("Cellar relations over the recorded answers", () => {
  it("gives every recorded act with amendment relations its lines, and says what the recordings hold", () => {
    expect(recorded.length).toBe(6);
    for (const { celex, body } of recorded) {
      const raw = rawRelations(body);
      const lines = changeLines(euRelationsOf(parseCellarRelations(body).get(celex) ?? []), "eurlex");
      // One line per recorded (relation, earlier act), in the answer's order.
      expect(lines.map((l) => [l.verb, l.lawId])).toEqual(
        raw.map((r) => [{ amends: "modifies", repeals: "repeals", corrects: "corrects" }[r.relation], r.target]),
      );
      // What is recorded: the metadata query's variables only (no ?relation, no ?target), so no act has lines.
      const vars = new Set(
        (JSON.parse(body.replace(/^\uFEFF/, "")) as { results: { bindings: object[] } }).results.bindings.flatMap((b) =>
          Object.keys(b),
        ),
      );
      expect([...vars].sort()).toEqual(
        ["author", "celex", "date", "eli", "endValidity", "entryForce", "force", "rtype", "title"].sort(),
      );
      expect(lines).toEqual([]);
    }
  });
});

describe("Cellar relations, the answer's shape", () => {
  // The shape Cellar's SPARQL-JSON gives for cellarRelationsQuery's variables (constructed here:
  // no recording holds these relations). The GDPR repeals Directive 95/46/EC; Regulation 2024/1689
  // amends, among others, Regulation (EU) 2018/1139; a corrigendum corrects the market abuse regulation.
  const answer = JSON.stringify({
    head: { vars: ["celex", "relation", "target"] },
    results: {
      bindings: [
        {
          celex: { type: "literal", value: "32016R0679" },
          relation: { type: "literal", value: "repeals" },
          target: { type: "literal", value: "31995L0046" },
        },
        {
          celex: { type: "literal", value: "32024R1689" },
          relation: { type: "literal", value: "amends" },
          target: { type: "literal", value: "32018R1139" },
        },
        {
          celex: { type: "literal", value: "32024R1689" },
          relation: { type: "literal", value: "amends" },
          target: { type: "literal", value: "32018R1139" },
        },
        {
          celex: { type: "literal", value: "32016R1011" },
          relation: { type: "literal", value: "amends" },
          target: { type: "literal", value: "32014R0596" },
        },
        {
          celex: { type: "literal", value: "32016R1011" },
          relation: { type: "literal", value: "corrects" },
          target: { type: "literal", value: "02014R0596-20160703" },
        },
        {
          celex: { type: "literal", value: "32016R1011" },
          relation: { type: "literal", value: "cites" },
          target: { type: "literal", value: "32013R0575" },
        },
      ],
    },
  });

  it("reads each act's relations once, acts only, the three relations only", () => {
    const parsed = parseCellarRelations(answer);
    expect(parsed.get("32016R0679")).toEqual([{ relation: "repeals", target: "31995L0046" }]);
    expect(parsed.get("32024R1689")).toEqual([{ relation: "amends", target: "32018R1139" }]);
    expect(parsed.get("32016R1011")).toEqual([{ relation: "amends", target: "32014R0596" }]);
    // Stored as the BOE's relations to earlier norms, Cellar's name kept as the code.
    expect(
      euRelationsOf([
        { relation: "amends", target: "32014R0596" },
        { relation: "repeals", target: "31995L0046" },
        { relation: "corrects", target: "32016R0679" },
      ]),
    ).toEqual([
      {
        type: "modifies",
        code: "amends",
        targetSourceId: "32014R0596",
        label: "Regulation (EU) No 596/2014",
        direction: "earlier",
      },
      {
        type: "repeals",
        code: "repeals",
        targetSourceId: "31995L0046",
        label: "Directive 95/46/EC",
        direction: "earlier",
      },
      {
        type: "corrects",
        code: "corrects",
        targetSourceId: "32016R0679",
        label: "Regulation (EU) 2016/679",
        direction: "earlier",
      },
    ]);
  });

  it("gives the lines in Spanish and English", () => {
    const lines = changeLines(euRelationsOf(parseCellarRelations(answer).get("32024R1689") ?? []), "eurlex");
    expect(lines).toEqual([
      {
        lawId: "32018R1139",
        verb: "modifies",
        verbText: "Modifica",
        text: "el Reglamento (UE) 2018/1139",
        line: "Modifica el Reglamento (UE) 2018/1139",
        texts: { es: "Reglamento (UE) 2018/1139", en: "Regulation (EU) 2018/1139" },
      },
    ]);
    const gdpr = changeLines(euRelationsOf(parseCellarRelations(answer).get("32016R0679") ?? []), "eurlex");
    expect(gdpr.map((l) => l.line)).toEqual(["Deroga la Directiva 95/46/CE"]);
    // A BOE document's relations with these codes are not read as Cellar's.
    expect(changeLines(euRelationsOf([{ relation: "amends", target: "32016R0679" }]), "boe")).toEqual([]);
  });

  it("cites acts as the Official Journal does", () => {
    expect(euActCitation("32016R0679")).toEqual({ es: "Reglamento (UE) 2016/679", en: "Regulation (EU) 2016/679" });
    expect(euActCitation("32014R0596")).toEqual({
      es: "Reglamento (UE) n.º 596/2014",
      en: "Regulation (EU) No 596/2014",
    });
    expect(euActCitation("32009R1107").en).toBe("Regulation (EC) No 1107/2009");
    expect(euActCitation("31995L0046")).toEqual({ es: "Directiva 95/46/CE", en: "Directive 95/46/EC" });
    expect(euActCitation("32014L0065").en).toBe("Directive 2014/65/EU");
    expect(euActCitation("32019L1937").en).toBe("Directive (EU) 2019/1937");
    expect(euActCitation("32011D0833").es).toBe("Decisión 2011/833/UE");
  });

  it("asks Cellar for the three relations of the acts named", () => {
    const query = cellarRelationsQuery('"32016R0679"^^xsd:string');
    for (const property of ["amends", "repeals", "corrects"])
      expect(query).toContain(`cdm:resource_legal_${property}_resource_legal`);
    expect(query).toContain('VALUES ?celex { "32016R0679"^^xsd:string }');
  });

  it("refuses a bad payload with a parse error only", () => {
    expect(() => parseCellarRelations("{")).toThrow(SourceParseError);
    expect(() => parseCellarRelations('{"results":{}}')).toThrow(SourceParseError);
  });
});
