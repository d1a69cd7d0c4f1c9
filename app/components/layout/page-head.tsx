import { company } from "../../content/company";
import { type Locale, locales } from "../../i18n/locales";
import { shellMessagesFor } from "../../i18n/shell";
import { absoluteUrl, defaultLocale, type PageId, pagePath } from "../../lib/site";
import { useRootData } from "../../root";

/** The social share image in public/ (1200×630). */
export const shareImage = { path: "/og-image.png", width: 1200, height: 630 } as const;

export function pageMeta(page: PageId, lang: Locale): { title: string; description: string } {
  const t = shellMessagesFor(lang);
  switch (page) {
    case "home":
      return { title: t.common.homeTitle, description: t.common.homeDescription };
    case "legalNotice":
      return { title: t.legal.legalNotice.metaTitle, description: t.legal.legalNotice.description };
    case "privacy":
      return { title: t.legal.privacy.metaTitle, description: t.legal.privacy.description };
    case "login":
      return { title: t.legal.login.metaTitle, description: t.legal.login.description };
  }
}

/** JSON for a <script> element: "<" escaped so no text can close the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** Title, description, canonical and hreflang alternates, Open Graph, Twitter card and JSON-LD of a site page. */
export function PageHead({ page, lang }: { page: PageId; lang: Locale }) {
  const root = useRootData();
  const t = shellMessagesFor(lang).common;
  const siteUrl = root?.siteUrl ?? "";
  const url = (locale: Locale) => absoluteUrl(siteUrl, pagePath(page, locale));
  const { title, description } = pageMeta(page, lang);
  const image = absoluteUrl(siteUrl, shareImage.path);
  const home = absoluteUrl(siteUrl, pagePath("home", lang));
  const jsonLd = {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "Organization",
        "@id": `${absoluteUrl(siteUrl, "/")}#organization`,
        name: company.tradeName,
        legalName: company.legalName,
        url: absoluteUrl(siteUrl, "/"),
        logo: absoluteUrl(siteUrl, "/icon-512.png"),
        email: company.email,
        taxID: company.taxId,
        address: {
          "@type": "PostalAddress",
          streetAddress: company.address.street,
          postalCode: company.address.postalCode,
          addressLocality: company.address.city,
          addressCountry: "ES",
        },
      },
      {
        "@type": "WebSite",
        "@id": `${home}#website`,
        name: t.siteName,
        url: home,
        inLanguage: lang,
        description: t.homeDescription,
        publisher: { "@id": `${absoluteUrl(siteUrl, "/")}#organization` },
      },
    ],
  };
  const otherLocales = locales.filter((locale) => locale !== lang);
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url(lang)} />
      {locales.map((locale) => (
        <link key={locale} rel="alternate" hrefLang={locale} href={url(locale)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={url(defaultLocale)} />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={t.siteName} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url(lang)} />
      <meta property="og:locale" content={t.ogLocale} />
      {otherLocales.map((locale) => (
        <meta key={locale} property="og:locale:alternate" content={shellMessagesFor(locale).common.ogLocale} />
      ))}
      <meta property="og:image" content={image} />
      <meta property="og:image:width" content={String(shareImage.width)} />
      <meta property="og:image:height" content={String(shareImage.height)} />
      <meta property="og:image:alt" content={t.ogImageAlt} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image} />
      <meta name="twitter:image:alt" content={t.ogImageAlt} />
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with "<" escaped, so it cannot close the element */}
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(jsonLd) }} />
    </>
  );
}
