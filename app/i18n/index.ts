import { en } from "./en";
import { es, type Messages } from "./es";
import type { Locale } from "./locales";

export type { Messages } from "./es";

const catalogs: Record<Locale, Messages> = { es, en };

export function messagesFor(locale: Locale): Messages {
  return catalogs[locale];
}
