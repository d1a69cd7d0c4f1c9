/**
 * Every count and status message of both catalogs (issue 40): a number followed by what it
 * counts is a plural text chosen by the platform's plural rules (one helper, app/lib/plural.ts),
 * never a fixed "{count} párrafos"; sentences start with a capital; a value set inside a sentence
 * ("sigues {what}") is written in lower case.
 */
import { describe, expect, it } from "vitest";
import { fillTemplate } from "../lib/fill-template.ts";
import { isPluralText, type PluralText, plural } from "../lib/plural.ts";

const catalogs = {
  es: import.meta.glob<Record<string, unknown>>("./es/*.ts", { eager: true }),
  en: import.meta.glob<Record<string, unknown>>("./en/*.ts", { eager: true }),
};

type Leaf = { path: string; value: string | PluralText };

/** Every text of a catalog module, a plural text counting as one. */
function leaves(value: unknown, path: string, out: Leaf[] = []): Leaf[] {
  if (typeof value === "string") out.push({ path, value });
  else if (isPluralText(value)) out.push({ path, value });
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) leaves(item, `${path}[${i}]`, out);
  else if (value && typeof value === "object")
    for (const [key, item] of Object.entries(value)) leaves(item, `${path}.${key}`, out);
  return out;
}

function textsOf(locale: "es" | "en"): Leaf[] {
  return Object.entries(catalogs[locale])
    .filter(([file]) => !file.endsWith("/index.ts"))
    .flatMap(([file, module]) => leaves(module, file.replace(/^\.\/\w+\//, "").replace(/\.ts$/, "")));
}

/** Placeholders that hold a number of things. */
const counts = "count|total|done|documents|weeks|paragraphs|inserted|deleted|overdue|failed|events|median|unread|days";
/** Words that may follow a number without being what it counts (of, in, without; "unread" does not inflect). */
const notCounted = new Set(["de", "of", "sin", "unread", "en", "in", "y", "and", "a", "to", "over"]);
const numberThenWord = new RegExp(`\\{(${counts})\\}\\s+(\\p{L}+)`, "gu");
const samples = [0, 1, 2, 3, 5, 11, 21, 100, 1000, 1_000_000, 1.5];

describe.each(["es", "en"] as const)("counted messages in %s", (locale) => {
  const texts = textsOf(locale);
  const plurals = texts.filter((t): t is { path: string; value: PluralText } => typeof t.value !== "string");

  it("every number followed by what it counts is a plural text", () => {
    const fixed = texts.flatMap(({ path, value }) =>
      typeof value === "string"
        ? [...value.matchAll(numberThenWord)]
            .filter((m) => !notCounted.has((m[2] ?? "").toLowerCase()))
            .map((m) => `${path}: ${m[0]}`)
        : [],
    );
    expect(fixed).toEqual([]);
    expect(plurals.length).toBeGreaterThan(10);
  });

  it("each plural text has the forms the language's rules ask for, each with its number", () => {
    const rules = new Intl.PluralRules(locale === "en" ? "en-GB" : "es-ES");
    const asked = new Set(samples.map((n) => rules.select(n)));
    for (const { path, value } of plurals) {
      for (const category of asked) {
        // A category the text does not give falls back to `other`; `one` must be there (1 is in every sample).
        if (category === "one") expect(value.one, path).toBeTruthy();
      }
      for (const form of Object.values(value)) expect(form, path).toContain("{count}");
      for (const n of samples) {
        const text = plural(locale, value, n);
        const chosen = value[rules.select(n)] ?? value.other;
        expect(text, `${path} ${n}`).toBe(
          fillTemplate(chosen, { count: n.toLocaleString(locale === "en" ? "en-GB" : "es-ES") }),
        );
        expect(text, `${path} ${n}`).not.toMatch(/\{count\}/);
      }
      // 1 takes the singular and 2 the plural wherever the two differ (they do for a noun).
      expect(plural(locale, value, 1), path).toBe(fillTemplate(value.one, { count: "1" }));
      expect(plural(locale, value, 2), path).toBe(fillTemplate(value.other, { count: "2" }));
    }
  });

  it("a counted sentence or label starts the same way in every form, with a capital when it is a sentence", () => {
    for (const { path, value } of plurals) {
      const starts = Object.values(value).map((form) => form.replace(/^\{\w+\}\s*/, "").charAt(0));
      const upper = starts.map((c) => c === c.toUpperCase());
      expect(new Set(upper).size, `${path}: ${JSON.stringify(value)}`).toBe(1);
      for (const form of Object.values(value)) {
        const first = form.charAt(0);
        if (form.endsWith(".") && /\p{L}/u.test(first)) expect(first, `${path}: ${form}`).toBe(first.toUpperCase());
      }
    }
  });

  it("a status sentence starts with a capital; a value set inside a sentence starts in lower case", () => {
    const lowerSentences = texts.filter(
      ({ value }) =>
        typeof value === "string" && value.endsWith(".") && /^\p{Ll}/u.test(value) && value.split(" ").length > 2,
    );
    expect(lowerSentences.map(({ path, value }) => `${path}: ${value}`)).toEqual([]);
    const inSentence = texts.filter(({ path }) => path.endsWith("InSentence"));
    expect(inSentence.length).toBeGreaterThan(0);
    for (const { path, value } of inSentence) expect(String(value), path).toMatch(/^\p{Ll}/u);
  });
});

describe("the follow confirmation", () => {
  it("reads 'sigues toda la ley' / 'you follow the whole law', not a capitalised label mid-sentence", async () => {
    const { laws: es } = await import("./es/laws.ts");
    const { laws: en } = await import("./en/laws.ts");
    expect(fillTemplate(es.page.follow.done, { what: es.page.follow.wholeInSentence })).toBe(
      "Listo: sigues toda la ley. Te avisaremos de cada cambio.",
    );
    expect(fillTemplate(en.page.follow.done, { what: en.page.follow.wholeInSentence })).toMatch(
      /^Done: you follow the whole law\./,
    );
  });

  it("counts paragraphs in words a reader expects: 'en 1 párrafo', 'in 1 paragraph'", async () => {
    const { laws: es } = await import("./es/laws.ts");
    const { laws: en } = await import("./en/laws.ts");
    const summary = (l: typeof es, locale: "es" | "en", words: number, gone: number, paragraphs: number) =>
      fillTemplate(l.compare.summary, {
        inserted: plural(locale, l.compare.insertedWords, words),
        deleted: plural(locale, l.compare.deletedWords, gone),
        paragraphs: plural(locale, l.compare.paragraphs, paragraphs),
      });
    expect(summary(es, "es", 1, 3, 1)).toBe("1 palabra añadida y 3 suprimidas en 1 párrafo.");
    expect(summary(es, "es", 12, 1, 2)).toBe("12 palabras añadidas y 1 suprimida en 2 párrafos.");
    expect(summary(en, "en", 1, 3, 1)).toBe("1 word added and 3 removed in 1 paragraph.");
  });
});
