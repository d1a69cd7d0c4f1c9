/**
 * What a gazette act changes (issue 39, decision 0141): the lines of the BOE's analysis
 * (`<anteriores>`) whose verb changes the norm it names — MODIFICA, AÑADE, DEROGA, SUPRIME,
 * SUSPENDE, ANULA, DA NUEVA REDACCIÓN, the corrections of errors, DECLARA la nulidad or la
 * inconstitucionalidad — in the analysis' own words ("Modifica el art. 13 de la Ley 38/2003…").
 * Citations, "de conformidad con", "en relación con", appeals and rulings that dismiss are not
 * changes and are left out.
 *
 * For the document page and the API each line is placed against the platform's laws: the law page
 * at the article the line names (when the law's text is held), the comparison once the
 * consolidated text holds a version from this act, and whether the reader follows the law.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { documents, lawBlockVersions, laws } from "../db/schema.ts";
import { parseArticleRefs, resolveRefs } from "../law-texts/articles.ts";
import { loadBlocks } from "../law-texts/store.ts";
import { anchorOf } from "../laws/page.ts";
import { euActCitation } from "../sources/eurlex/relations.ts";

export type ChangeVerb = "modifies" | "adds" | "repeals" | "removes" | "suspends" | "voids" | "corrects";

/** Verbs of the analysis that change the norm they name, as the BOE writes them (palabra). */
const CHANGE_VERBS: Array<[RegExp, ChangeVerb]> = [
  [/^MODIFICA\b/i, "modifies"],
  [/^DA NUEVA REDACCI[ÓO]N\b/i, "modifies"],
  [/^A[ÑN]ADE\b/i, "adds"],
  [/^DEROGA\b/i, "repeals"],
  [/^SUPRIME\b/i, "removes"],
  [/^SUSPENDE\b/i, "suspends"],
  [/^ANULA\b/i, "voids"],
  [/^DECLARA\b(?=\s+(la|su)?\s*(nulidad|inconstitucionalidad))/i, "voids"],
  [/^(CORRECCI[ÓO]N de errores|CORRIGE errores|SE CORRIGEN errores)/i, "corrects"],
];

export interface ChangeLine {
  /** The changed norm (BOE-A-…, or an EU act's CELEX number). */
  lawId: string;
  verb: ChangeVerb;
  /** The analysis' verb as written ("MODIFICA", "CORRIGE errores"). */
  verbText: string;
  /** The rest of the analysis line ("el art. 13 de la Ley 38/2003, de 17 de noviembre"). */
  text: string;
  /** The line as the page shows it, in the analysis' Spanish ("Modifica el art. 13 de la Ley 38/2003…"). */
  line: string;
  /**
   * EU acts: the amended act as cited in each language ("Reglamento (UE) 2016/679", "Regulation (EU)
   * 2016/679"), from Cellar's relation; BOE lines have the analysis' Spanish only.
   */
  texts?: { es: string; en: string };
}

/** Cellar's relations of an EU act (sources/eurlex/relations.ts) as change verbs, with the Spanish verb. */
const EU_VERBS: Record<string, [ChangeVerb, string]> = {
  amends: ["modifies", "Modifica"],
  repeals: ["repeals", "Deroga"],
  corrects: ["corrects", "Corrige"],
};

/** The Spanish article for a cited act ("el Reglamento", "la Directiva", "la Decisión"). */
const article = (citation: string) => (/^(Directiva|Decisión)\b/.test(citation) ? "la" : "el");

/** The verb and text of an analysis line written as "VERB text" (a stored relation's label). */
export function changeOf(label: string): { verb: ChangeVerb; verbText: string; text: string } | undefined {
  const trimmed = label.replace(/\s+/g, " ").trim();
  for (const [pattern, verb] of CHANGE_VERBS) {
    const m = pattern.exec(trimmed);
    if (m) return { verb, verbText: m[0], text: trimmed.slice(m[0].length).trim() };
  }
  return undefined;
}

/** "MODIFICA" + "el art. 13…" → "Modifica el art. 13…"; "MODIFICA" + ", en la forma…" → "Modifica, en la forma…". */
export function changeSentence(verbText: string, text: string): string {
  const verb = verbText.charAt(0).toUpperCase() + verbText.slice(1).toLowerCase();
  if (!text) return verb;
  return /^[,.;:]/.test(text) ? `${verb}${text}` : `${verb} ${text}`;
}

/** The change lines of a document's relations to earlier norms, in the analysis' order. */
export function changeLines(
  relations: ReadonlyArray<{ direction: string; targetSourceId: string; label: string; code?: string }>,
  source: "boe" | "eurlex" | string = "boe",
): ChangeLine[] {
  const out: ChangeLine[] = [];
  for (const relation of relations) {
    if (relation.direction !== "earlier") continue;
    if (source === "eurlex") {
      // Cellar's relations: "Modifica el Reglamento (UE) 2016/679" / "Amends Regulation (EU) 2016/679".
      const eu = EU_VERBS[relation.code ?? ""];
      if (!eu) continue;
      const texts = euActCitation(relation.targetSourceId);
      const text = `${article(texts.es)} ${texts.es}`;
      out.push({ lawId: relation.targetSourceId, verb: eu[0], verbText: eu[1], text, line: `${eu[1]} ${text}`, texts });
      continue;
    }
    const change = changeOf(relation.label);
    if (!change) continue;
    out.push({ lawId: relation.targetSourceId, ...change, line: changeSentence(change.verbText, change.text) });
  }
  return out;
}

/** A change line placed against the platform's laws. */
export interface DocumentChange extends ChangeLine {
  /** The law's title, when the reader's organisation follows the law and its text is held. */
  lawTitle: string | null;
  /**
   * The law page, at the first block the line names when its text is held; null when the reader's
   * organisation does not follow the law (its page is theirs only: decision 0124).
   */
  lawPath: string | null;
  /** The blocks the line names, resolved against the law's text (empty: not held, or none named). */
  blockIds: string[];
  /**
   * Blocks whose consolidated text already holds a version from this act, each with its comparison:
   * those the line names, or (when it names none the law has) every block this act reworded.
   */
  consolidated: Array<{ blockId: string; title: string; comparePath: string }>;
  /** Whether the reader follows the law (any of their follows). */
  followed: boolean;
}

/** Which laws the reader's organisation follows (reached: its law pages) and the reader does (followed). */
export interface ChangeReach {
  reached: ReadonlySet<string>;
  followed: ReadonlySet<string>;
}

const lawPathOf = (lawId: string, blockId?: string) =>
  `/app/laws/${encodeURIComponent(lawId)}${blockId ? `?block=${encodeURIComponent(blockId)}#${anchorOf(blockId)}` : ""}`;

const comparePathOf = (lawId: string, blockId: string, normId: string) =>
  `/app/laws/${encodeURIComponent(lawId)}/compare?${new URLSearchParams({ block: blockId, to: normId }).toString()}`;

/**
 * What a stored document changes, for a reader. Whether the platform holds a law says that some
 * organisation follows it, so a law's title, blocks and comparisons are given only for the laws
 * the reader's organisation follows (`reach.reached`); other lines keep the analysis' words and
 * the follow button. The document's own reach is the caller's to check first.
 */
export async function documentChanges(
  database: Database,
  documentId: string,
  reach: ChangeReach = { reached: new Set(), followed: new Set() },
): Promise<DocumentChange[]> {
  // The parsed record keeps every line of the analysis in its order (document_relations keeps one
  // row per type and target).
  const [document] = await database.db
    .select({
      sourceId: documents.sourceId,
      source: documents.source,
      relations: sql<unknown>`${documents.record}->'relations'`,
    })
    .from(documents)
    .where(eq(documents.id, documentId));
  if (!document) return [];
  const relations = Array.isArray(document.relations)
    ? (document.relations as Array<Partial<Record<"direction" | "targetSourceId" | "label" | "code", unknown>>>).map(
        (r) => ({
          direction: String(r.direction ?? ""),
          targetSourceId: String(r.targetSourceId ?? ""),
          label: String(r.label ?? ""),
          code: String(r.code ?? ""),
        }),
      )
    : [];
  const lines = changeLines(relations, document.source);
  if (lines.length === 0) return [];
  const lawIds = [...new Set(lines.map((line) => line.lawId))].filter((id) => reach.reached.has(id));
  const held =
    lawIds.length === 0
      ? []
      : await database.db.select({ id: laws.id, title: laws.title }).from(laws).where(inArray(laws.id, lawIds));
  const titles = new Map(held.map((law) => [law.id, law.title]));
  const fromThisAct =
    lawIds.length === 0
      ? []
      : await database.db
          .selectDistinct({ lawId: lawBlockVersions.lawId, blockId: lawBlockVersions.blockId })
          .from(lawBlockVersions)
          .where(and(inArray(lawBlockVersions.lawId, lawIds), eq(lawBlockVersions.normId, document.sourceId)));
  const out: DocumentChange[] = [];
  for (const line of lines) {
    const blocks = titles.has(line.lawId) ? await loadBlocks(database, line.lawId) : [];
    const blockIds = blocks.length > 0 ? resolveRefs(parseArticleRefs(`${line.verbText} ${line.text}`), blocks) : [];
    const byId = new Map(blocks.map((b) => [b.blockId, b]));
    // The blocks the line names, when it names any the law has; else every block this act reworded.
    const named = new Set(blockIds);
    const consolidated = fromThisAct
      .filter((row) => row.lawId === line.lawId && (named.size === 0 || named.has(row.blockId)))
      .map((row) => ({
        blockId: row.blockId,
        title: byId.get(row.blockId)?.title || row.blockId,
        comparePath: comparePathOf(line.lawId, row.blockId, document.sourceId),
        position: byId.get(row.blockId)?.position ?? 0,
      }))
      .sort((a, b) => a.position - b.position)
      .map(({ position: _position, ...rest }) => rest);
    const title = titles.get(line.lawId);
    out.push({
      ...line,
      lawTitle: title && title !== line.lawId ? title : null,
      lawPath: reach.reached.has(line.lawId) ? lawPathOf(line.lawId, blockIds[0]) : null,
      blockIds,
      consolidated,
      followed: reach.followed.has(line.lawId),
    });
  }
  return out;
}
