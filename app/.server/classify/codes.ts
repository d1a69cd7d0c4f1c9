/** Layer 1: the publishers' own codes through the mapping tables. */
import type { AreaId } from "../../lib/taxonomy.ts";
import type { SourceDocument } from "../documents/types.ts";
import { classificationHints } from "../sources/registry.ts";
import type { DocumentText } from "./document-text.ts";
import { reason } from "./reasons.ts";
import type { AreaEvidence } from "./scores.ts";
import { boeAlertas, boeDepartments, boeMateriaLabels, boeMaterias, type DepartmentRule } from "./tables/boe.ts";
import { eurlexDirectoryChapters, eurlexDirectoryHeadings, eurovocLabels } from "./tables/eurlex.ts";
import eurovocAreas from "./tables/eurovoc-areas.json" with { type: "json" };
import { fold } from "./text.ts";

/** The department rule for the document's department, by code then by name. */
export function departmentRule(doc: SourceDocument, text: DocumentText): DepartmentRule | undefined {
  const code = doc.department?.code;
  if (code) {
    const byCode = boeDepartments.find((rule) => rule.codes?.includes(code));
    if (byCode) return byCode;
  }
  if (!text.foldedDepartment) return undefined;
  return boeDepartments.find((rule) => rule.names.some((name) => text.foldedDepartment.includes(name)));
}

function materiaArea(code: string, label: string): AreaId | undefined {
  const byCode = boeMaterias[code];
  if (byCode) return byCode;
  const folded = fold(label);
  return boeMateriaLabels.find((entry) => folded.includes(entry.fragment))?.area;
}

/** Adds the code layer's evidence; returns true when the section makes its area exclusive. */
export function applyCodes(doc: SourceDocument, text: DocumentText, evidence: AreaEvidence): { exclusive?: AreaId } {
  // The source's own codes first (a BOE section, an EU author: sources/*/classification.ts).
  const hinted = classificationHints(doc.source).codes?.(doc, text, evidence);
  if (hinted?.exclusive) return { exclusive: hinted.exclusive };

  const department = departmentRule(doc, text);
  if (department?.area) {
    // A court's own administrative acts (section III: grants, agreements) are not court matters.
    const score = department.weak ?? (department.court && text.section === "3" ? 0.5 : 0.9);
    evidence.add(department.area, score, reason("department", { name: doc.department?.label ?? "" }), "codes");
  }

  // Materias vote: an area named by at least a quarter of the mapped materias (or the
  // most named) gets evidence in proportion to its share.
  const votes = new Map<AreaId, { count: number; examples: { code: string; label: string }[] }>();
  let mapped = 0;
  for (const subject of doc.subjects) {
    const area = materiaArea(subject.code, subject.label);
    if (!area) continue;
    mapped++;
    const vote = votes.get(area) ?? { count: 0, examples: [] };
    vote.count++;
    vote.examples.push(subject);
    votes.set(area, vote);
  }
  if (mapped > 0) {
    const top = Math.max(...[...votes.values()].map((v) => v.count));
    for (const [area, vote] of votes) {
      const share = vote.count / mapped;
      if (vote.count !== top && share < 0.25) continue;
      const score = Math.min(0.95, 0.5 + 0.45 * share);
      for (const example of vote.examples.slice(0, 3)) {
        evidence.add(
          area,
          score / vote.examples.slice(0, 3).length,
          reason("materia", { code: example.code, label: example.label }),
          "codes",
        );
      }
    }
  }

  for (const alert of doc.alerts) {
    const area = boeAlertas[alert.code];
    if (area) evidence.add(area, 0.25, reason("alerta", { code: alert.code, label: alert.label }), "codes");
  }

  // EuroVoc: the concept's id through the bundled table (built from its Spanish and English
  // labels by classify:eurovoc), else the label the source gave.
  const conceptAreas = eurovocAreas.concepts as Record<string, AreaId | undefined>;
  for (const concept of doc.eurovoc) {
    const id = concept.code.split("/").pop() ?? concept.code;
    const folded = fold(concept.label);
    const area = conceptAreas[id] ?? eurovocLabels.find((e) => folded.includes(e.fragment))?.area;
    if (area) evidence.add(area, 0.5, reason("eurovoc", { code: id, label: concept.label }), "codes");
  }

  for (const directory of doc.directoryCodes) {
    const digits = directory.code.replace(/\D/g, "");
    const heading = Object.keys(eurlexDirectoryHeadings)
      .filter((prefix) => digits.startsWith(prefix))
      .sort((a, b) => b.length - a.length)[0];
    const area = heading ? eurlexDirectoryHeadings[heading] : eurlexDirectoryChapters[digits.slice(0, 2)];
    if (area) evidence.add(area, 0.7, reason("directory", { code: directory.code, label: directory.label }), "codes");
  }
  return {};
}
