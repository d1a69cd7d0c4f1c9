/** The one list of locales. Spanish is the default and has no path prefix. */
export const locales = ["es", "en"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "es";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}

/** Name of the cookie that remembers the visitor's language. */
export const localeCookieName = "locale";
/** 365 days, in seconds. */
export const localeCookieMaxAge = 365 * 24 * 60 * 60;
