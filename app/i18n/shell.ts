/**
 * The copy every page's script needs (menu, footer, errors, page titles), for
 * both locales. The long home page copy is not here: it reaches the browser as
 * the home route's loader data, so no locale's copy is shipped twice as code.
 */
import { common as enCommon } from "./en/common";
import { legal as enLegal } from "./en/legal";
import type { Messages } from "./es";
import { common as esCommon } from "./es/common";
import { legal as esLegal } from "./es/legal";
import type { Locale } from "./locales";

export type ShellMessages = Pick<Messages, "common" | "legal">;

const shells: Record<Locale, ShellMessages> = {
  es: { common: esCommon, legal: esLegal },
  en: { common: enCommon, legal: enLegal },
};

export function shellMessagesFor(locale: Locale): ShellMessages {
  return shells[locale];
}
