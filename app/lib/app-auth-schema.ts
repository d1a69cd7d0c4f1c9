/**
 * The platform's form schemas (sign-in, second factor, setup, invitation, passwords, members,
 * groups), one per form for the browser and the server, with messages in the user's language.
 * zod/mini keeps the browser bundle small.
 */
import * as z from "zod/mini";
import type { Locale } from "../i18n/locales.ts";
import { type ValidationMessages, validationText } from "../i18n/validation.ts";
import { fieldErrorsOf } from "./field-errors.ts";

type AuthText = ValidationMessages["auth"];

const emailField = (m: AuthText) =>
  z.string(m.email).check(z.trim(), z.toLowerCase(), z.email(m.email), z.maxLength(254, m.email));
const nameField = (m: AuthText) => z.string(m.name).check(z.trim(), z.minLength(1, m.name), z.maxLength(120, m.name));
const passwordField = (m: AuthText) =>
  z.string(m.password).check(z.minLength(12, m.password), z.maxLength(256, m.password));
const roleField = (m: AuthText) => z.enum(["owner", "admin", "member"], m.role);
const localeField = (m: AuthText) => z.enum(["es", "en"], m.locale);

export function loginSchema(locale: Locale) {
  const m = validationText(locale).auth;
  return z.object({ email: emailField(m), password: z.string(m.required).check(z.minLength(1, m.required)) });
}

export function secondFactorSchema(locale: Locale) {
  const m = validationText(locale).auth;
  return z.union([
    z.object({ method: z.literal("totp"), code: z.string(m.code).check(z.trim(), z.regex(/^\d{6}$/, m.code)) }),
    z.object({
      method: z.literal("recovery"),
      code: z.string(m.recovery).check(z.trim(), z.minLength(6, m.recovery), z.maxLength(40, m.recovery)),
    }),
  ]);
}

export function setupSchema(locale: Locale) {
  const m = validationText(locale).auth;
  return z.object({
    organizationName: nameField(m),
    name: nameField(m),
    email: emailField(m),
    password: passwordField(m),
  });
}

export function acceptInvitationSchema(locale: Locale) {
  const m = validationText(locale).auth;
  return z.object({ name: nameField(m), password: passwordField(m) });
}

export function totpCodeSchema(locale: Locale) {
  const m = validationText(locale).auth;
  return z.object({ code: z.string(m.code).check(z.trim(), z.regex(/^\d{6}$/, m.code)) });
}

export function passwordOnlySchema(locale: Locale) {
  const m = validationText(locale).auth;
  return z.object({ password: z.string(m.required).check(z.minLength(1, m.required)) });
}

export function changePasswordSchema(locale: Locale) {
  const m = validationText(locale).auth;
  return z.object({
    currentPassword: z.string(m.required).check(z.minLength(1, m.required)),
    newPassword: passwordField(m),
  });
}

export function resetRequestSchema(locale: Locale) {
  return z.object({ email: emailField(validationText(locale).auth) });
}

export function resetPasswordSchema(locale: Locale) {
  return z.object({ password: passwordField(validationText(locale).auth) });
}

export function inviteSchema(locale: Locale) {
  const m = validationText(locale).auth;
  return z.object({
    email: emailField(m),
    role: roleField(m),
    locale: localeField(m),
    groups: z.optional(z.array(z.string())),
  });
}

export function groupNameSchema(locale: Locale) {
  return z.object({ name: nameField(validationText(locale).auth) });
}

export function roleSchema(locale: Locale) {
  return z.object({ role: roleField(validationText(locale).auth) });
}

export function localeSchema(locale: Locale) {
  return z.object({ locale: localeField(validationText(locale).auth) });
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
