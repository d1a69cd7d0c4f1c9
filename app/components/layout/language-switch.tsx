import type { Locale } from "../../i18n/locales";
import { shellMessagesFor } from "../../i18n/shell";
import { type PageId, pagePath } from "../../lib/site";
import { SvgIcon } from "../ui/icons";

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

/** `hash`: the home section in view, so the visitor lands on the same section in the other language. */
export function LanguageSwitch({
  lang,
  page,
  hash,
  className,
}: {
  lang: Locale;
  page: PageId;
  hash?: string;
  className?: string;
}) {
  const t = shellMessagesFor(lang).common.nav;
  const other: Locale = lang === "es" ? "en" : "es";
  return (
    <a
      href={languageSwitchHref(lang, page, hash)}
      hrefLang={other}
      lang={other}
      aria-label={t.switchToLabel}
      className={className}
      data-language-switch=""
    >
      <SvgIcon name="globe" size={18} className="me-1" />
      {t.switchTo}
    </a>
  );
}
