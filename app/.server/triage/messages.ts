/** The triage and obligation services' validation messages, in the user's language (tú in Spanish), and their field errors. */
import { type ValidationMessages, validationText } from "../../i18n/validation.ts";
import { type FieldErrors, fieldErrorsOf, type IssueLike } from "../../lib/field-errors.ts";

export type Lang = "es" | "en";

/** The triage messages of the validation catalog (app/i18n/{es,en}/validation.ts), by language. */
export const triageText: Record<Lang, ValidationMessages["triage"]> = {
  es: validationText("es").triage,
  en: validationText("en").triage,
};

export type { FieldErrors };

/** Zod issues as `{ field: [message] }` (the API's fieldErrors and the forms' errors). */
export function fieldErrors(issues: readonly IssueLike[]): FieldErrors {
  return fieldErrorsOf(issues, { fallback: "form" });
}
