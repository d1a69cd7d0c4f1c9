/**
 * The contact form's one schema, used by the browser (Conform) and by POST /mail/send.
 * Built on zod/mini to keep the browser bundle small (docs/decisions/0020-client-validation.md).
 */
import * as z from "zod/mini";
import { contact as enContact } from "../i18n/en/contact.ts";
import { contact as esContact } from "../i18n/es/contact.ts";
import type { Locale } from "../i18n/locales.ts";
import { type ContactField, contactFieldLimits, contactFieldNames, requiredContactFields } from "./contact-fields.ts";
import { fieldErrorsOf } from "./field-errors.ts";

/** Digits, spaces, + - . / ( ) and an optional extension: international formats without being picky. */
export const phonePattern = /^\+?[0-9(][0-9 ().\-/]{2,}(?:\s*(?:ext\.?|x|#)\s*[0-9]{1,6})?$/i;
const emailPattern = z.regexes.email;

/** One line of text: control characters (NUL…) removed, line breaks and tabs become spaces, runs of spaces collapse. */
export function cleanLine(value: string): string {
  return (
    value
      .toWellFormed()
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g, "")
      .replace(/[\t\n\v\f\r\u2028\u2029]+/g, " ")
      .replace(/ {2,}/g, " ")
      .trim()
  );
}

/** Free text: newlines kept (normalised to \n), other control characters removed. */
export function cleanText(value: string): string {
  return (
    value
      .toWellFormed()
      .replace(/\r\n?/g, "\n")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "")
      .trim()
  );
}

export type ContactMessages = typeof esContact;
const catalogs: Record<Locale, ContactMessages> = { es: esContact, en: enContact };

export function contactMessages(locale: Locale): ContactMessages {
  return catalogs[locale];
}

function field(name: ContactField, m: ContactMessages) {
  const max = contactFieldLimits[name];
  const required = requiredContactFields.includes(name);
  const base = z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? m.errors.required : m.errors.invalid),
  });
  const checks: z.core.$ZodCheck<string>[] = [
    z.overwrite(name === "comments" ? cleanText : cleanLine),
    ...(required ? [z.minLength(1, { error: m.errors.required, abort: true })] : []),
    z.maxLength(max, { error: m.errors.tooLong.replace("{max}", String(max)), abort: true }),
  ];
  if (name === "email") checks.push(z.regex(emailPattern, { error: m.errors.email }));
  if (name === "phone")
    checks.push(z.refine<string>((value) => value === "" || phonePattern.test(value), { error: m.errors.phone }));
  const schema = base.check(...checks);
  // Optional fields: absent, null or empty all mean "not given".
  return required
    ? schema
    : z.pipe(
        z.optional(z.nullable(schema)),
        z.transform((value) => value ?? ""),
      );
}

function buildSchema(locale: Locale) {
  const m = contactMessages(locale);
  return z.object({
    name: field("name", m),
    firstName: field("firstName", m),
    email: field("email", m),
    position: field("position", m),
    company: field("company", m),
    phone: field("phone", m),
    location: field("location", m),
    comments: field("comments", m),
  });
}

const schemas = new Map<Locale, ReturnType<typeof buildSchema>>();

/** The schema with its messages in the given language. */
export function contactSchema(locale: Locale): ReturnType<typeof buildSchema> {
  let schema = schemas.get(locale);
  if (!schema) {
    schema = buildSchema(locale);
    schemas.set(locale, schema);
  }
  return schema;
}

export type ContactInput = Record<ContactField, string>;
export type FieldErrors = Partial<Record<ContactField, string[]>>;

export type ContactValidation = { success: true; data: ContactInput } | { success: false; fieldErrors: FieldErrors };

/** Validates any value (a parsed JSON body, form values): never throws. */
export function validateContact(input: unknown, locale: Locale): ContactValidation {
  const value = input !== null && typeof input === "object" && !Array.isArray(input) ? input : {};
  const result = z.safeParse(contactSchema(locale), value);
  if (result.success) return { success: true, data: result.data };
  const fieldErrors: FieldErrors = fieldErrorsOf(result.error.issues, { fallback: "", only: contactFieldNames });
  return { success: false, fieldErrors };
}
