/** The law pages' messages by locale. */
import { laws as en } from "../../../i18n/en/laws";
import { laws as es, type LawsMessages } from "../../../i18n/es/laws";
import type { Locale } from "../../../i18n/locales";

export type { LawsMessages };

export function lawsMessages(locale: Locale): LawsMessages {
  return locale === "en" ? en : es;
}

/** A date (YYYY-MM-DD) as the reader's language writes it. */
export function formatLawDate(value: string | null | undefined, locale: Locale): string {
  if (!value) return "—";
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-ES", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${value.slice(0, 10)}T00:00:00Z`),
  );
}
