/** Site structure: the pages, their path in each locale, and the one link builder. */
import { defaultLocale, isLocale, type Locale, locales } from "../i18n/locales.ts";

export type PageId = "home" | "privacy" | "legalNotice" | "login";

export const pagePaths: Record<PageId, Record<Locale, string>> = {
  home: { es: "/", en: "/en" },
  privacy: { es: "/privacidad", en: "/en/privacy" },
  legalNotice: { es: "/aviso-legal", en: "/en/legal-notice" },
  login: { es: "/login", en: "/en/login" },
};

/** Pages listed in the sitemaps. */
export const indexedPages: readonly PageId[] = ["home", "legalNotice", "privacy"];

/** Home page section ids, in order. */
export const sectionIds = ["intro", "collaboration", "architecture", "use-cases", "contact"] as const;
export type SectionId = (typeof sectionIds)[number];

export function pagePath(page: PageId, locale: Locale, hash?: string): string {
  return pagePaths[page][locale] + (hash ? `#${hash}` : "");
}

export function absoluteUrl(siteUrl: string, pathname: string): string {
  return new URL(pathname, `${siteUrl}/`).toString();
}

/** The page at this path, if the site has one. */
export function pageAt(pathname: string): { page: PageId; locale: Locale } | undefined {
  for (const [page, paths] of Object.entries(pagePaths) as [PageId, Record<Locale, string>][]) {
    for (const locale of locales) {
      if (paths[locale] === pathname) return { page, locale };
    }
  }
  return undefined;
}

/**
 * The route's language: the `lang` parameter when present, otherwise the route's
 * own language from its handle, otherwise the default of the route configuration.
 */
export function resolveLang(param: string | undefined, routeLang?: unknown): Locale {
  if (isLocale(param)) return param;
  if (isLocale(routeLang)) return routeLang;
  return defaultLocale;
}

export { defaultLocale, locales };
