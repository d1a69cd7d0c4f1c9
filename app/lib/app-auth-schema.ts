/**
 * The platform's form schemas (sign-in, second factor, setup, invitation, passwords, members,
 * groups), one per form for the browser and the server, with messages in the user's language.
 * zod/mini keeps the browser bundle small.
 */
import * as z from "zod/mini";
import type { Locale } from "../i18n/locales.ts";
import { fieldErrorsOf } from "./field-errors.ts";

const text = {
  es: {
    required: "Este campo es obligatorio.",
    email: "Escribe una dirección de correo válida.",
    name: "Escribe un nombre de 1 a 120 caracteres.",
    password: "La contraseña debe tener entre 12 y 256 caracteres.",
    code: "Escribe el código de 6 cifras de tu aplicación.",
    recovery: "Escribe uno de tus códigos de recuperación.",
    role: "Elige un rol.",
    locale: "Elige un idioma.",
  },
  en: {
    required: "This field is required.",
    email: "Enter a valid email address.",
    name: "Enter a name of 1 to 120 characters.",
    password: "The password must have between 12 and 256 characters.",
    code: "Enter the 6-digit code from your app.",
    recovery: "Enter one of your recovery codes.",
    role: "Choose a role.",
    locale: "Choose a language.",
  },
} satisfies Record<Locale, Record<string, string>>;

const emailField = (m: (typeof text)["es"]) =>
  z.string(m.email).check(z.trim(), z.toLowerCase(), z.email(m.email), z.maxLength(254, m.email));
const nameField = (m: (typeof text)["es"]) =>
  z.string(m.name).check(z.trim(), z.minLength(1, m.name), z.maxLength(120, m.name));
const passwordField = (m: (typeof text)["es"]) =>
  z.string(m.password).check(z.minLength(12, m.password), z.maxLength(256, m.password));
const roleField = (m: (typeof text)["es"]) => z.enum(["owner", "admin", "member"], m.role);
const localeField = (m: (typeof text)["es"]) => z.enum(["es", "en"], m.locale);

export function loginSchema(locale: Locale) {
  const m = text[locale];
  return z.object({ email: emailField(m), password: z.string(m.required).check(z.minLength(1, m.required)) });
}

export function secondFactorSchema(locale: Locale) {
  const m = text[locale];
  return z.union([
    z.object({ method: z.literal("totp"), code: z.string(m.code).check(z.trim(), z.regex(/^\d{6}$/, m.code)) }),
    z.object({
      method: z.literal("recovery"),
      code: z.string(m.recovery).check(z.trim(), z.minLength(6, m.recovery), z.maxLength(40, m.recovery)),
    }),
  ]);
}

export function setupSchema(locale: Locale) {
  const m = text[locale];
  return z.object({
    organizationName: nameField(m),
    name: nameField(m),
    email: emailField(m),
    password: passwordField(m),
  });
}

export function acceptInvitationSchema(locale: Locale) {
  const m = text[locale];
  return z.object({ name: nameField(m), password: passwordField(m) });
}

export function totpCodeSchema(locale: Locale) {
  const m = text[locale];
  return z.object({ code: z.string(m.code).check(z.trim(), z.regex(/^\d{6}$/, m.code)) });
}

export function passwordOnlySchema(locale: Locale) {
  const m = text[locale];
  return z.object({ password: z.string(m.required).check(z.minLength(1, m.required)) });
}

export function changePasswordSchema(locale: Locale) {
  const m = text[locale];
  return z.object({
    currentPassword: z.string(m.required).check(z.minLength(1, m.required)),
    newPassword: passwordField(m),
  });
}

export function resetRequestSchema(locale: Locale) {
  return z.object({ email: emailField(text[locale]) });
}

export function resetPasswordSchema(locale: Locale) {
  return z.object({ password: passwordField(text[locale]) });
}

export function inviteSchema(locale: Locale) {
  const m = text[locale];
  return z.object({
    email: emailField(m),
    role: roleField(m),
    locale: localeField(m),
    groups: z.optional(z.array(z.string())),
  });
}

export function groupNameSchema(locale: Locale) {
  return z.object({ name: nameField(text[locale]) });
}

export function roleSchema(locale: Locale) {
  return z.object({ role: roleField(text[locale]) });
}

export function localeSchema(locale: Locale) {
  return z.object({ locale: localeField(text[locale]) });
}

export type FormErrors = Record<string, string[]>;

/** Form fields (repeated names become arrays) validated by `schema`: data or errors per field. */
export function parseForm<T>(
  schema: z.ZodMiniType<T>,
  form: FormData,
  arrays: readonly string[] = [],
): { ok: true; data: T } | { ok: false; errors: FormErrors } {
  const input: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    // Empty fields count as missing (an optional date left blank, a required field not filled).
    const values = form.getAll(key).filter((value): value is string => typeof value === "string" && value !== "");
    input[key] = arrays.includes(key) ? values : values[0];
  }
  const result = z.safeParse(schema, input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: fieldErrorsOf(result.error.issues, { fallback: "form" }) };
}
