/**
 * What a search query means beyond its words: the business areas it names (the taxonomy's
 * names and search terms, Spanish or English) and its translations into the other language
 * (the taxonomy's terms and the EuroVoc thesaurus' Spanish–English pairs, search-lexicon.json).
 * searchDocuments matches and ranks with both: "data protection" reaches Spanish texts about
 * "protección de datos", and the documents labelled data-protection come first.
 *
 * Matching is on Snowball stems with stop words dropped, so plurals and accents do not matter
 * ("impuestos" names the tax area as "impuesto" does). A single word is looked up only when it
 * is the whole query: "datos" alone names no area, "protección de datos" does.
 */
import { readFileSync } from "node:fs";
import { type AreaId, areas as taxonomyAreas } from "../../lib/taxonomy.ts";
import { searchLexiconFile } from "../fixtures-path.ts";
import { glossary } from "./search-glossary.ts";
import { fold, stemKey } from "./search-stems.ts";

export { fold, stemKey };

type Lang = "es" | "en";

interface Entry {
  /** The other language's label (to search with that language's configuration). */
  translation?: { lang: Lang; text: string };
  area?: AreaId;
}

let index: Map<string, Entry[]> | undefined;

function add(map: Map<string, Entry[]>, lang: Lang, text: string, entry: Entry) {
  addKey(map, `${lang}:${stemKey(text, lang).join(" ")}`, entry);
}

function addKey(map: Map<string, Entry[]>, key: string, entry: Entry) {
  if (key.length <= 3) return;
  const list = map.get(key) ?? [];
  list.push(entry);
  map.set(key, list);
}

function lexicon(): Map<string, Entry[]> {
  if (index) return index;
  const map = new Map<string, Entry[]>();
  // The thesaurus' labels come stemmed (scripts/search-lexicon.ts): stemming 14,000 labels here
  // took seconds on the first search.
  const lexiconPairs = JSON.parse(readFileSync(searchLexiconFile, "utf8")) as [string, string, string, string][];
  for (const [es, en, esKey, enKey] of lexiconPairs) {
    addKey(map, `es:${esKey}`, { translation: { lang: "en", text: en } });
    addKey(map, `en:${enKey}`, { translation: { lang: "es", text: es } });
  }
  for (const entry of glossary) {
    const all = [
      ...entry.es.map((text) => ({ lang: "es" as const, text })),
      ...entry.en.map((text) => ({ lang: "en" as const, text })),
    ];
    for (const from of all) for (const to of all) if (from !== to) add(map, from.lang, from.text, { translation: to });
  }
  for (const area of taxonomyAreas) {
    for (const lang of ["es", "en"] as const) {
      const other: Lang = lang === "es" ? "en" : "es";
      for (const term of [area.name[lang], ...area.searchTerms[lang]]) add(map, lang, term, { area: area.id });
      // The area's name reaches the other language's documents through that language's name.
      add(map, lang, area.name[lang], { translation: { lang: other, text: area.name[other] } });
    }
  }
  index = map;
  return map;
}

export interface Expansion {
  /** Areas the query names: their documents match and rank first. */
  areas: AreaId[];
  /** Phrases to search as well, by the configuration of their language. */
  phrases: Record<Lang, string[]>;
}

/** The areas and translations of a query (none for queries with "phrases", exclusions, OR or prefixes). */
export function expandQuery(q: string): Expansion {
  const out: Expansion = { areas: [], phrases: { es: [], en: [] } };
  // A "phrase" is searched as typed: no synonyms, no translations, no areas.
  if (/(^|\s)-|\bor\b|\*|"/i.test(q)) return out;
  const text = q;
  const map = lexicon();
  const areas = new Set<AreaId>();
  const phrases = { es: new Map<string, string>(), en: new Map<string, string>() };
  for (const lang of ["es", "en"] as const) {
    const stems = stemKey(text, lang);
    if (stems.length === 0 || stems.length > 8) continue;
    // The whole query, then every run of two or more of its words.
    const keys = new Set<string>([stems.join(" ")]);
    for (let size = Math.min(stems.length - 1, 5); size >= 2; size--) {
      for (let start = 0; start + size <= stems.length; start++) keys.add(stems.slice(start, start + size).join(" "));
    }
    for (const key of keys) {
      for (const entry of map.get(`${lang}:${key}`) ?? []) {
        if (entry.area) areas.add(entry.area);
        if (entry.translation && fold(entry.translation.text) !== fold(text.trim())) {
          const found = phrases[entry.translation.lang];
          const key = fold(entry.translation.text);
          if (!found.has(key)) found.set(key, entry.translation.text);
        }
      }
    }
  }
  out.areas = [...areas];
  out.phrases = { es: [...phrases.es.values()].slice(0, 12), en: [...phrases.en.values()].slice(0, 12) };
  return out;
}

/** `word*` terms of a query: prefixes (letters and digits only), and the query without them. */
export function prefixes(q: string): { prefixes: string[]; rest: string } {
  const found: string[] = [];
  const rest = q.replace(/(^|\s)([\p{L}\p{N}]{2,})\*(?=\s|$)/gu, (_match, space: string, word: string) => {
    found.push(word);
    return space;
  });
  return { prefixes: found, rest: rest.replace(/\s+/g, " ").trim() };
}
