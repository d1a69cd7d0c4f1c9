/**
 * The BOE's classification hints: sections IV and V are announcements, and a section that
 * decides its area alone (V-A) makes it exclusive. Departments, materias, alertas and ranks
 * are the generic rules of classify (they read any BOE-style document).
 */
import { reason } from "../../classify/reasons.ts";
import { boeSections } from "../../classify/tables/boe.ts";
import type { ClassificationHints } from "../plugin.ts";

export const boeClassification: ClassificationHints = {
  kind(_doc, text) {
    if (!/^(4|5)/.test(text.section)) return undefined;
    return {
      id: "announcement",
      reason: { es: `Sección BOE ${text.section}: anuncio`, en: `BOE section ${text.section}: announcement` },
    };
  },
  codes(_doc, text, evidence) {
    const section = boeSections[text.section];
    if (!section?.area) return undefined;
    evidence.add(section.area, 0.95, reason("section", { code: text.section, name: section.name }), "codes");
    return section.exclusive ? { exclusive: section.area } : undefined;
  },
};
