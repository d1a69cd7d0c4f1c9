/** Query and label normalisation for search expansion: folded, stop words dropped, Snowball stems. */
import snowball from "snowball-stemmers";

type Lang = "es" | "en";

const stemmers = { es: snowball.newStemmer("spanish"), en: snowball.newStemmer("english") };
const stopwords = new Set(
  (
    "a al and as at by con de del desde e el en for from in la las lo los o of on or para por sobre " +
    "the to un una y"
  ).split(" "),
);

export const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The stems of a text's words, stop words dropped. */
export function stemKey(text: string, lang: Lang): string[] {
  return (fold(text).match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((word) => !stopwords.has(word))
    .map((word) => stemmers[lang].stem(word));
}
