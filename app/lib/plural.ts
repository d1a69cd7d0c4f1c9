/**
 * Counted messages: a catalog entry gives one text per plural category the language uses
 * (`one` and `other` in Spanish and English; `many` where ICU has it), and `plural` picks it
 * with the platform's CLDR rules (Intl.PluralRules), so no message chooses its own form.
 */
import { fillTemplate } from "./fill-template.ts";

export interface PluralText {
  one: string;
  other: string;
  zero?: string;
  two?: string;
  few?: string;
  many?: string;
}

const tags = { es: "es-ES", en: "en-GB" } as const;
const rules = new Map<string, Intl.PluralRules>();

/** Whether a catalog value is a counted message (its keys are plural categories, `one` and `other` among them). */
export function isPluralText(value: unknown): value is PluralText {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.includes("one") &&
    keys.includes("other") &&
    keys.every((key) => ["zero", "one", "two", "few", "many", "other"].includes(key)) &&
    Object.values(value).every((text) => typeof text === "string")
  );
}

/** The text for `count` in the language (its `{count}` written as the language writes numbers), other `{names}` filled from `values`. */
export function plural(
  locale: "es" | "en",
  text: PluralText,
  count: number,
  values: Record<string, string | number> = {},
): string {
  const tag = tags[locale];
  let rule = rules.get(tag);
  if (!rule) {
    rule = new Intl.PluralRules(tag);
    rules.set(tag, rule);
  }
  const form = text[rule.select(count)] ?? text.other;
  return fillTemplate(form, { ...values, count: count.toLocaleString(tag) });
}
