/** The validation catalog in a locale (es/en: app/i18n/{es,en}/validation.ts). */
import { validation as en } from "./en/validation.ts";
import { validation as es, type ValidationMessages } from "./es/validation.ts";

export type { ValidationMessages };

export function validationText(locale: string | undefined): ValidationMessages {
  return locale === "en" ? en : es;
}
