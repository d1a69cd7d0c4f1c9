import { describe, expect, it } from "vitest";
import { robotsTxt, sitemapXml } from "./sitemap.ts";

describe("sitemaps", () => {
  it("lists each locale's pages with absolute URLs and hreflang alternates", () => {
    const es = sitemapXml("https://example.es", "es");
    expect(es).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    expect(es).toContain("<loc>https://example.es/</loc>");
    expect(es).toContain("<loc>https://example.es/privacidad</loc>");
    expect(es).toContain("<loc>https://example.es/aviso-legal</loc>");
    expect(es).not.toContain("<loc>https://example.es/en</loc>");
    expect(es).toContain('<xhtml:link rel="alternate" hreflang="en" href="https://example.es/en"/>');
    expect(es).toContain('<xhtml:link rel="alternate" hreflang="x-default" href="https://example.es/"/>');
    const en = sitemapXml("https://example.es", "en");
    expect(en).toContain("<loc>https://example.es/en</loc>");
    expect(en).toContain("<loc>https://example.es/en/privacy</loc>");
    expect(en).toContain('<xhtml:link rel="alternate" hreflang="es" href="https://example.es/aviso-legal"/>');
  });

  it("names both sitemaps in robots.txt", () => {
    const robots = robotsTxt("https://example.es");
    expect(robots).toMatch(/^User-agent: \*\nAllow: \//);
    expect(robots).toContain("Sitemap: https://example.es/sitemap.xml");
    expect(robots).toContain("Sitemap: https://example.es/en/sitemap.xml");
  });
});
