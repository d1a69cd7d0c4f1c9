import { messagesFor } from "../../i18n";
import { type Locale, locales } from "../../i18n/locales";
import { absoluteUrl, defaultLocale, type PageId, pagePath } from "../../lib/site";
import { useRootData } from "../../root";

/** Title, description, canonical and hreflang alternates of a site page. */
export function PageHead({ page, lang }: { page: PageId; lang: Locale }) {
  const root = useRootData();
  const t = messagesFor(lang).common;
  const siteUrl = root?.siteUrl ?? "";
  const url = (locale: Locale) => absoluteUrl(siteUrl, pagePath(page, locale));
  return (
    <>
      <title>{t.homeTitle}</title>
      <meta name="description" content={t.homeDescription} />
      <link rel="canonical" href={url(lang)} />
      {locales.map((locale) => (
        <link key={locale} rel="alternate" hrefLang={locale} href={url(locale)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={url(defaultLocale)} />
    </>
  );
}
