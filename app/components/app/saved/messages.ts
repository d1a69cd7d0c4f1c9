/** Saved searches', search-to-alert and profile feeds' messages by locale. */
import { saved as en } from "../../../i18n/en/saved";
import { saved as es, type SavedMessages } from "../../../i18n/es/saved";
import type { Locale } from "../../../i18n/locales";

export type { SavedMessages };

export function savedMessages(locale: Locale): SavedMessages {
  return locale === "en" ? en : es;
}
