/**
 * The parts of a law a relation text names ("el art. 28.2 y 3", "los arts. 2 a 5", "arts. 9, 10 y
 * SE AÑADE la disposición adicional 6", "la disposición adicional tercera", "el anexo II"), and the
 * law's blocks they are (by title: "Artículo 28", "Disposición adicional sexta", "Anexo II").
 */
import type { Block } from "./model.ts";

export interface ArticleRef {
  kind: "article" | "provision" | "annex";
  /** Article number with its suffix (28, 85 bis), provision kind + ordinal (adicional sexta), annex number. */
  name: string;
}

const ORDINALS = [
  "",
  "primera",
  "segunda",
  "tercera",
  "cuarta",
  "quinta",
  "sexta",
  "séptima",
  "octava",
  "novena",
  "décima",
  "undécima",
  "duodécima",
  "decimotercera",
  "decimocuarta",
  "decimoquinta",
  "decimosexta",
  "decimoséptima",
  "decimoctava",
  "decimonovena",
  "vigésima",
];

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

const SUFFIX = "(?:\\s+(?:bis|ter|quater|quinquies|sexies|septies|octies|nonies|decies))?";

/** The parts named in a relation text. */
export function parseArticleRefs(text: string): ArticleRef[] {
  const out: ArticleRef[] = [];
  const seen = new Set<string>();
  const add = (ref: ArticleRef) => {
    const key = `${ref.kind}:${ref.name}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(ref);
    }
  };
  const t = fold(text);
  // Articles: "art. 23", "arts. 2 a 5", "arts. 9, 10 y 12", "articulo 85 bis", "art. 28.2 y 3" (sections of one article).
  const articleList = new RegExp(
    `\\bart(?:s?\\.|iculos?)\\s+((?:\\d+${SUFFIX}(?:\\.\\d+)*(?:\\s*(?:,|y|a|e)\\s*)?)+)`,
    "g",
  );
  for (const m of t.matchAll(articleList)) {
    const list = m[1] ?? "";
    const items = [...list.matchAll(new RegExp(`(\\d+${SUFFIX})((?:\\.\\d+)*)|\\b(a|y|e)\\b`, "g"))];
    let previous: number | undefined;
    let range = false;
    let sectionsOf: string | undefined;
    for (const item of items) {
      if (item[3]) {
        range = item[3] === "a";
        continue;
      }
      const name = (item[1] ?? "").replace(/\s+/g, " ");
      const number = Number.parseInt(name, 10);
      // "28.2 y 3": after a dotted section, a bare number is another section of the same article.
      if (sectionsOf && !item[2] && !range) {
        sectionsOf = undefined;
        continue;
      }
      if (range && previous !== undefined && number > previous && number - previous <= 200 && !/\D/.test(name)) {
        for (let n = previous + 1; n <= number; n++) add({ kind: "article", name: String(n) });
      } else add({ kind: "article", name });
      range = false;
      previous = /\D/.test(name) ? undefined : number;
      sectionsOf = item[2] ? name : undefined;
    }
  }
  // Provisions: "disposicion adicional tercera", "disposiciones finales 2 y 3", "d.a. 6".
  const provisions =
    /\bdisposici(?:on|ones)\s+(adicional|transitoria|final|derogatoria)(?:es)?\s+((?:(?:\d+|[a-z]+)(?:\s*(?:,|y)\s*)?)+)/g;
  for (const m of t.matchAll(provisions)) {
    const kind = m[1] as string;
    for (const word of (m[2] ?? "").split(/\s*(?:,|\by\b)\s*/)) {
      const w = word.trim();
      if (!w) continue;
      const ordinal = /^\d+$/.test(w) ? ORDINALS[Number(w)] : fold(w);
      if (ordinal && (ORDINALS.map(fold).includes(fold(ordinal)) || ordinal === "unica"))
        add({ kind: "provision", name: `${kind} ${fold(ordinal)}` });
    }
    if (/^(unica)\b/.test(m[2] ?? "")) add({ kind: "provision", name: `${kind} unica` });
  }
  for (const m of t.matchAll(/\banexos?\s+([ivxlc]+|\d+)\b/g)) add({ kind: "annex", name: m[1] as string });
  return out;
}

/** The block ids of `blocks` the references name (unresolved references are left out). */
export function resolveRefs(refs: ArticleRef[], blocks: readonly Pick<Block, "blockId" | "title">[]): string[] {
  const out: string[] = [];
  for (const ref of refs) {
    const found = blocks.find((block) => {
      const title = fold(block.title);
      if (ref.kind === "article") return new RegExp(`^articulo ${ref.name}\\.?$`).test(title);
      if (ref.kind === "provision")
        return title === `disposicion ${ref.name}` || title.startsWith(`disposicion ${ref.name}.`);
      return new RegExp(`^anexo ${ref.name}\\b`).test(title);
    });
    if (found && !out.includes(found.blockId)) out.push(found.blockId);
  }
  return out;
}

/** A reference as people write it ("art. 23", "disposición adicional tercera"). */
export function refLabel(ref: ArticleRef): string {
  if (ref.kind === "article") return `art. ${ref.name}`;
  if (ref.kind === "annex") return `anexo ${ref.name.toUpperCase()}`;
  return `disposición ${ref.name}`;
}
