/**
 * Text normalisation shared by the keyword rules and the model: accent- and
 * case-insensitive folding, tokenising, and Snowball stemming (Spanish and English).
 */
import snowball from "snowball-stemmers";

const stemmers = {
  es: snowball.newStemmer("spanish"),
  en: snowball.newStemmer("english"),
};

/** Lower case without diacritics: "Resolución" → "resolucion". */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** Words of the folded text (letters and digits). */
export function words(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

const stopwords = new Set(
  (
    "a al algo and ante as at by con contra de del desde e el en entre es for from hacia hasta in " +
    "la las lo los o of on or para per por que se sin sobre su sus the to un una unas unos y"
  ).split(" "),
);

const cache = new Map<string, string>();

/** The stem of one folded word, in the document's language. */
export function stemWord(word: string, language: "es" | "en"): string {
  const key = `${language}:${word}`;
  let stem = cache.get(key);
  if (stem === undefined) {
    stem = stemmers[language].stem(word);
    if (cache.size > 50_000) cache.clear();
    cache.set(key, stem);
  }
  return stem;
}

/** Stemmed tokens of the text, stop words dropped. */
export function stems(text: string, language: "es" | "en"): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (stopwords.has(word)) continue;
    out.push(stemWord(word, language));
  }
  return out;
}

/** The stems as one space-joined string with padding, for phrase search: " activ financier ". */
export function stemmedText(text: string, language: "es" | "en"): string {
  return ` ${stems(text, language).join(" ")} `;
}

/** A phrase's stems, space-joined with padding, ready to search in stemmedText output. */
export function stemmedPhrase(phrase: string, language: "es" | "en"): string {
  return ` ${stems(phrase, language).join(" ")} `;
}
