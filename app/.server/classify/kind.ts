/**
 * Kind: the normalised rank. The source's hint first (every item of BOE sections IV and V is
 * an announcement; EUR-Lex's resource types); otherwise the first words of the title decide (only a title starting "Corrección de
 * errores" is a correction), then the publisher's rank or resource-type code.
 */
import type { KindId } from "../../lib/taxonomy.ts";
import type { SourceDocument } from "../documents/types.ts";
import { classificationHints } from "../sources/registry.ts";
import type { DocumentText } from "./document-text.ts";
import { boeRanks, titleKinds } from "./tables/boe.ts";
import { fold } from "./text.ts";

export interface KindResult {
  id: KindId;
  reason: { es: string; en: string };
}

const orderedTitleKinds = [...titleKinds].sort((a, b) => b.prefix.length - a.prefix.length);

export function kindOf(doc: SourceDocument, text: DocumentText): KindResult {
  // The source's hint first (BOE sections IV and V, EUR-Lex's types: sources/*/classification.ts).
  const hinted = classificationHints(doc.source).kind?.(doc, text);
  if (hinted) return hinted;
  const title = text.foldedRankTitle;
  for (const { prefix, kind } of orderedTitleKinds) {
    if (title.startsWith(prefix) && !/[\p{L}]/u.test(title.charAt(prefix.length))) {
      const opening = titleOpening(text, title, prefix);
      return {
        id: kind,
        reason: { es: `El título empieza por «${opening}»`, en: `The title starts with «${opening}»` },
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

/**
 * The title's own opening words as published ("Ley Orgánica", with its accent and capitals), for
 * the reason a reader sees; the folded prefix only when the two cannot be lined up.
 */
function titleOpening(text: DocumentText, rankTitle: string, prefix: string): string {
  const original = text.title.normalize("NFC").trim();
  const start = text.foldedTitle.length - rankTitle.length;
  const shown = original.slice(start, start + prefix.length);
  return fold(shown) === prefix ? shown : prefix;
}
