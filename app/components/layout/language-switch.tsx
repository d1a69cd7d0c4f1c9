import { messagesFor } from "../../i18n";
import type { Locale } from "../../i18n/locales";
import { type PageId, pagePath } from "../../lib/site";

/**
 * Link to the same page in the other language. Going back to Spanish passes
 * ?locale=es so the server can overwrite an English cookie, which would
 * otherwise send the visitor straight back to /en.
 */
export function languageSwitchHref(lang: Locale, page: PageId, hash?: string): string {
  const other: Locale = lang === "es" ? "en" : "es";
  const path = pagePath(page, other);
  return `${path}${other === "es" ? "?locale=es" : ""}${hash ? `#${hash}` : ""}`;
}

export function LanguageSwitch({ lang, page }: { lang: Locale; page: PageId }) {
  const t = messagesFor(lang).common.nav;
  const other: Locale = lang === "es" ? "en" : "es";
  return (
    <a
      href={languageSwitchHref(lang, page)}
      hrefLang={other}
      lang={other}
      aria-label={t.switchToLabel}
      data-language-switch=""
    >
      {t.switchTo}
    </a>
  );
}
