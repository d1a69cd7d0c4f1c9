/**
 * Kind: the normalised rank. Every item of BOE sections IV and V is an announcement;
 * otherwise the first words of the title decide (only a title starting "Corrección de
 * errores" is a correction), then the publisher's rank or resource-type code.
 */
import type { KindId } from "../../lib/taxonomy.ts";
import type { SourceDocument } from "../documents/types.ts";
import type { DocumentText } from "./document-text.ts";
import { boeRanks, titleKinds } from "./tables/boe.ts";
import { celexLetters, eurlexResourceTypes } from "./tables/eurlex.ts";

export interface KindResult {
  id: KindId;
  reason: { es: string; en: string };
}

const orderedTitleKinds = [...titleKinds].sort((a, b) => b.prefix.length - a.prefix.length);

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

export function kindOf(doc: SourceDocument, text: DocumentText): KindResult {
  if (doc.source === "boe" && /^(4|5)/.test(text.section)) {
    return {
      id: "announcement",
      reason: { es: `Sección BOE ${text.section}: anuncio`, en: `BOE section ${text.section}: announcement` },
    };
  }
  if (doc.source === "eurlex") {
    const code = doc.rank?.code?.split("/").pop()?.toUpperCase() ?? "";
    const byTitle = euTitleKind(text.foldedTitle);
    if (byTitle === "correction" || byTitle === "delegated-regulation" || byTitle === "implementing-regulation") {
      return { id: byTitle, reason: { es: "Primeras palabras del título", en: "First words of the title" } };
    }
    const byType = eurlexResourceTypes[code];
    if (byType)
      return { id: byType, reason: { es: `Tipo de recurso EUR-Lex ${code}`, en: `EUR-Lex resource type ${code}` } };
    if (byTitle) return { id: byTitle, reason: { es: "Primeras palabras del título", en: "First words of the title" } };
    const letter = doc.sourceId.match(/^\d{5}([A-Z])/)?.[1] ?? "";
    const byLetter = celexLetters[letter];
    if (byLetter) return { id: byLetter, reason: { es: `Número CELEX (${letter})`, en: `CELEX number (${letter})` } };
    return { id: "other", reason: { es: "Tipo no reconocido", en: "Type not recognised" } };
  }
  const title = text.foldedRankTitle;
  for (const { prefix, kind } of orderedTitleKinds) {
    if (title.startsWith(prefix) && !/[\p{L}]/u.test(title.charAt(prefix.length))) {
      return {
        id: kind,
        reason: { es: `El título empieza por «${prefix}»`, en: `The title starts with «${prefix}»` },
      };
    }
  }
  const rank = doc.rank?.code ? boeRanks[doc.rank.code] : undefined;
  if (rank && rank !== "correction") {
    return {
      id: rank,
      reason: {
        es: `Rango BOE ${doc.rank?.code} «${doc.rank?.label}»`,
        en: `BOE rank ${doc.rank?.code} «${doc.rank?.label}»`,
      },
    };
  }
  return { id: "other", reason: { es: "Rango no reconocido en el título", en: "Rank not recognised from the title" } };
}
