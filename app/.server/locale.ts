/** Which language a visitor of "/" gets: the cookie, then Accept-Language, then Spanish. */
import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import {
  defaultLocale,
  isLocale,
  type Locale,
  localeCookieMaxAge,
  localeCookieName,
  locales,
} from "../i18n/locales.ts";

export function localeFromCookie(cookieHeader: string | null | undefined): Locale | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== localeCookieName) continue;
    const value = part.slice(eq + 1).trim();
    if (isLocale(value)) return value;
  }
  return undefined;
}

/**
 * Visitors send a small number of distinct Accept-Language headers; negotiating
 * each one once keeps locale detection at "/" off the hot path. Bounded: it is
 * emptied when full, so odd headers cannot grow it.
 */
const negotiated = new Map<string, Locale | undefined>();
const maxRemembered = 500;

export function localeFromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header || header.length > 1000) return undefined;
  if (negotiated.has(header)) return negotiated.get(header);
  const locale = negotiate(header);
  if (negotiated.size >= maxRemembered) negotiated.clear();
  negotiated.set(header, locale);
  return locale;
}

function negotiate(header: string): Locale | undefined {
  let requested: string[];
  try {
    requested = new Negotiator({ headers: { "accept-language": header } }).languages();
  } catch {
    return undefined;
  }
  const candidates = requested.filter((tag) => tag !== "*" && isWellFormedTag(tag));
  if (candidates.length === 0) return undefined;
  try {
    const best = match(candidates, [...locales], "und", { algorithm: "best fit" });
    return isLocale(best) ? best : undefined;
  } catch {
    return undefined;
  }
}

function isWellFormedTag(tag: string): boolean {
  try {
    Intl.getCanonicalLocales(tag);
    return true;
  } catch {
    return false;
  }
}

export function negotiateLocale(headers: { cookie?: string | null; acceptLanguage?: string | null }): Locale {
  return localeFromCookie(headers.cookie) ?? localeFromAcceptLanguage(headers.acceptLanguage) ?? defaultLocale;
}

export function localeCookie(locale: Locale, secure = false): string {
  return `${localeCookieName}=${locale}; Max-Age=${localeCookieMaxAge}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
}
