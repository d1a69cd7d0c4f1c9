/** The law pages' messages by locale. */
import { laws as en } from "../../../i18n/en/laws";
import { laws as es, type LawsMessages } from "../../../i18n/es/laws";
import type { Locale } from "../../../i18n/locales";
import { longDay } from "../../../lib/long-day";

export type { LawsMessages };

export function lawsMessages(locale: Locale): LawsMessages {
  return locale === "en" ? en : es;
}

/** A date (YYYY-MM-DD) as the reader's language writes it. */
export function formatLawDate(value: string | null | undefined, locale: Locale): string {
  if (!value) return "—";
  return longDay(value, locale);
}
