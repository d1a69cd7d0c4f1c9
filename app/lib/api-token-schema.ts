/**
 * The "new API token" form's one schema, for the admin page in the browser (Conform) and on the
 * server: a name, scope read or admin, an optional expiry date after today. zod/mini keeps the
 * browser bundle small (docs/decisions/0020-client-validation.md).
 */
import * as z from "zod/mini";
import type { Locale } from "../i18n/locales.ts";

export const apiTokenNameMaxLength = 100;

const messages = {
  es: {
    name: `Escribe un nombre de 1 a ${apiTokenNameMaxLength} caracteres`,
    scope: "Elige lectura o administración",
    expiresAt: "La caducidad debe ser una fecha posterior a hoy (AAAA-MM-DD)",
  },
  en: {
    name: `Enter a name of 1 to ${apiTokenNameMaxLength} characters`,
    scope: "Choose read or admin",
    expiresAt: "The expiry must be a date after today (YYYY-MM-DD)",
  },
} satisfies Record<Locale, Record<string, string>>;

/** `today` as YYYY-MM-DD (UTC) decides which expiry dates are in the future. */
export function apiTokenFormSchema(locale: Locale, today: string = new Date().toISOString().slice(0, 10)) {
  const m = messages[locale];
  return z.object({
    name: z.string(m.name).check(z.trim(), z.minLength(1, m.name), z.maxLength(apiTokenNameMaxLength, m.name)),
    scope: z.enum(["read", "admin"], m.scope),
    expiresAt: z.optional(z.iso.date(m.expiresAt).check(z.refine((value) => value > today, m.expiresAt))),
  });
}

export type ApiTokenForm = z.output<ReturnType<typeof apiTokenFormSchema>>;

/** The form's expiry date as the instant the token stops working: the end of that day, UTC. */
export function tokenExpiry(expiresAt: string | undefined): Date | undefined {
  return expiresAt ? new Date(`${expiresAt}T23:59:59.999Z`) : undefined;
}
