/**
 * EUR-Lex's classification hints: every act is EU law; the kind from the title's first words,
 * the resource-type code or the CELEX letter; relevance by instrument; the authoring body's
 * code as evidence of the business area.
 */
import type { KindId } from "../../../lib/taxonomy.ts";
import { reason } from "../../classify/reasons.ts";
import { celexLetters, eurlexAuthors, eurlexResourceTypes } from "../../classify/tables/eurlex.ts";
import type { ClassificationHints } from "../plugin.ts";

/** EU titles: "Regulation (EU) 2016/679 …", "Commission Delegated Regulation (EU) …", "Reglamento de Ejecución (UE) …". */
function euTitleKind(folded: string): KindId | undefined {
  const head = folded.slice(0, 80);
  if (/^corrigendum|^correccion de errores/.test(head)) return "correction";
  if (/delegated regulation|reglamento delegado/.test(head)) return "delegated-regulation";
  if (/implementing regulation|reglamento de ejecucion/.test(head)) return "implementing-regulation";
  if (/^(\w+ )*regulation|^reglamento/.test(head)) return "regulation";
  if (/^(\w+ )*directive|^directiva/.test(head)) return "directive";
  if (/^(\w+ )*decision|^decision/.test(head)) return "decision";
  if (/^(\w+ )*recommendation|^recomendacion/.test(head)) return "recommendation";
  return undefined;
}

const byTitleReason = { es: "Primeras palabras del título", en: "First words of the title" };

export const eurlexClassification: ClassificationHints = {
  jurisdiction: () => ({
    id: "EU",
    reason: { es: "Fuente: EUR-Lex (Unión Europea)", en: "Source: EUR-Lex (European Union)" },
  }),
  kind(doc, text) {
    const code = doc.rank?.code?.split("/").pop()?.toUpperCase() ?? "";
    const byTitle = euTitleKind(text.foldedTitle);
    if (byTitle === "correction" || byTitle === "delegated-regulation" || byTitle === "implementing-regulation") {
      return { id: byTitle, reason: byTitleReason };
    }
    const byType = eurlexResourceTypes[code];
    if (byType)
      return { id: byType, reason: { es: `Tipo de recurso EUR-Lex ${code}`, en: `EUR-Lex resource type ${code}` } };
    if (byTitle) return { id: byTitle, reason: byTitleReason };
    const letter = doc.sourceId.match(/^\d{5}([A-Z])/)?.[1] ?? "";
    const byLetter = celexLetters[letter];
    if (byLetter) return { id: byLetter, reason: { es: `Número CELEX (${letter})`, en: `CELEX number (${letter})` } };
    return { id: "other", reason: { es: "Tipo no reconocido", en: "Type not recognised" } };
  },
  relevance(_doc, _text, kind) {
    if (kind === "regulation" || kind === "directive")
      return { id: "high", reason: { es: "Reglamento o directiva de la UE", en: "EU regulation or directive" } };
    if (kind === "correction" || kind === "notice")
      return { id: "low", reason: { es: "Corrección o comunicación de la UE", en: "EU correction or notice" } };
    return {
      id: "medium",
      reason: {
        es: "Acto delegado, de ejecución, decisión o recomendación de la UE",
        en: "EU delegated or implementing act, decision or recommendation",
      },
    };
  },
  codes(doc, _text, evidence) {
    const authorCode = doc.department?.code?.split("/").pop() ?? "";
    const author = eurlexAuthors[authorCode];
    if (author) evidence.add(author.area, 0.85, reason("author", { code: authorCode, name: author.name }), "codes");
    return undefined;
  },
};
