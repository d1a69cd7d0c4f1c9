/** The overview, calendar and evidence pages' messages by locale. */
import { evidence as en } from "../../../i18n/en/evidence";
import { type EvidenceMessages, evidence as es } from "../../../i18n/es/evidence";
import type { Locale } from "../../../i18n/locales";

export type { EvidenceMessages };

export function evidenceMessages(locale: Locale): EvidenceMessages {
  return locale === "en" ? en : es;
}
