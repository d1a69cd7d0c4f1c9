/** The parts of a SourceDocument the layers read, folded once per document. */
import type { SourceDocument } from "../documents/types.ts";
import { fold } from "./text.ts";

/** How much opening text the keyword rules and the model read (characters). */
export const OPENING_CHARS = 1500;

export interface DocumentText {
  language: "es" | "en";
  /** Title as published (first words give the kind). */
  title: string;
  foldedTitle: string;
  /** Title without a Constitutional Court chamber prefix ("Pleno. ", "Sala Primera. "). */
  foldedRankTitle: string;
  /** The opening paragraphs that are not just the title again. */
  opening: string;
  department: string;
  foldedDepartment: string;
  epigraph: string;
  section: string;
}

/** Tolerant of a stored record older or thinner than today's parsers write (no paragraphs, no language). */
export function documentText(doc: SourceDocument): DocumentText {
  const foldedTitle = fold(doc.title ?? "").trim();
  let opening = "";
  for (const paragraph of doc.paragraphs ?? []) {
    if (opening.length >= OPENING_CHARS) break;
    const text = (paragraph.text ?? "").trim();
    if (!text || fold(text) === foldedTitle) continue;
    opening += `${text}\n`;
  }
  const department = doc.department?.label ?? "";
  return {
    language: doc.language === "en" ? "en" : "es",
    title: doc.title ?? "",
    foldedTitle,
    foldedRankTitle: foldedTitle.replace(
      /^(pleno|sala (primera|segunda)|seccion (primera|segunda|tercera|cuarta))\.\s*/,
      "",
    ),
    opening: opening.slice(0, OPENING_CHARS),
    department,
    foldedDepartment: fold(department),
    epigraph: doc.epigraph ?? "",
    section: (doc.section ?? "").toUpperCase(),
  };
}
