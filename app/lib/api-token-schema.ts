/**
 * The "new API token" form's one schema, for the admin page in the browser (Conform) and on the
 * server: a name, scope read or admin, an optional expiry date after today. zod/mini keeps the
 * browser bundle small (docs/decisions/0020-client-validation.md).
 */
import * as z from "zod/mini";
import type { Locale } from "../i18n/locales.ts";
import { validationText } from "../i18n/validation.ts";
import { calendarDate } from "./calendar-date.ts";
import { fillTemplate } from "./fill-template.ts";

export const apiTokenNameMaxLength = 100;

/** `today` as YYYY-MM-DD (UTC) decides which expiry dates are in the future. */
export function apiTokenFormSchema(locale: Locale, today: string = new Date().toISOString().slice(0, 10)) {
  const text = validationText(locale).apiToken;
  const m = { ...text, name: fillTemplate(text.name, { max: apiTokenNameMaxLength }) };
  return z.object({
    name: z.string(m.name).check(z.trim(), z.minLength(1, m.name), z.maxLength(apiTokenNameMaxLength, m.name)),
    scope: z.enum(["read", "admin"], m.scope),
    expiresAt: z.optional(calendarDate(m.expiresAt).check(z.refine((value) => value > today, m.expiresAt))),
  });
}

export type ApiTokenForm = z.output<ReturnType<typeof apiTokenFormSchema>>;

/** The form's expiry date as the instant the token stops working: the end of that day, UTC. */
export function tokenExpiry(expiresAt: string | undefined): Date | undefined {
  return expiresAt ? new Date(`${expiresAt}T23:59:59.999Z`) : undefined;
}
