/** XML sitemaps and robots.txt, built from the site structure. */
import { type Locale, locales } from "../i18n/locales.ts";
import { absoluteUrl, defaultLocale, indexedPages, pagePath } from "../lib/site.ts";

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function sitemapXml(siteUrl: string, locale: Locale): string {
  const urls = indexedPages.map((page) => {
    const loc = absoluteUrl(siteUrl, pagePath(page, locale));
    const alternates = [
      ...locales.map((alt) => [alt, absoluteUrl(siteUrl, pagePath(page, alt))] as const),
      ["x-default", absoluteUrl(siteUrl, pagePath(page, defaultLocale))] as const,
    ]
      .map(([hreflang, href]) => `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(href)}"/>`)
      .join("\n");
    return `  <url>\n    <loc>${escapeXml(loc)}</loc>\n${alternates}\n  </url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "",
    ...locales.map(
      (locale) =>
        `Sitemap: ${absoluteUrl(siteUrl, locale === defaultLocale ? "/sitemap.xml" : `/${locale}/sitemap.xml`)}`,
    ),
    "",
  ].join("\n");
}
