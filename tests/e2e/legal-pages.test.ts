import { describe, expect, test } from "vitest";
import { company } from "../../app/content/company.ts";
import { openPage } from "../support/browser.ts";
import { setupServerAndBrowser } from "../support/home-fixtures.ts";

const f = setupServerAndBrowser();

const pages = [
  {
    path: "/aviso-legal",
    lang: "es",
    h1: "Aviso legal",
    other: "/en/legal-notice?locale=es",
    must: ["Ley 34/2002", company.taxId, company.registry],
  },
  {
    path: "/en/legal-notice",
    lang: "en",
    h1: "Legal notice",
    other: "/aviso-legal?locale=es",
    must: ["Law 34/2002", company.taxId, company.registry],
  },
  {
    path: "/privacidad",
    lang: "es",
    h1: "Política de privacidad",
    other: "/en/privacy?locale=es",
    must: ["AEPD", "locale", "365 días", company.privacyEmail, "6.1.b"],
  },
  {
    path: "/en/privacy",
    lang: "en",
    h1: "Privacy policy",
    other: "/privacidad?locale=es",
    must: ["AEPD", "locale", "365 days", company.privacyEmail, "6(1)(b)"],
  },
] as const;

describe("legal pages", () => {
  test.each(pages)("$path: its own title, lang, company data, footer links", async ({ path, lang, h1, must }) => {
    const { page, errors, close } = await openPage(f.browser, { viewport: { width: 1280, height: 900 } });
    const response = await page.goto(`${f.server.url}${path}`);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute("html", "lang")).toBe(lang);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(h1);
    expect(await page.locator("h1").count()).toBe(1);
    const title = await page.title();
    expect(title).toContain(h1);
    const main = (await page.getByRole("main").textContent()) ?? "";
    for (const text of must) expect(main).toContain(text);
    expect(main).not.toMatch(/\{\w+\}/); // every placeholder filled
    const footer = page.getByRole("contentinfo");
    const legalLinks = await footer.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(legalLinks).toEqual(
      expect.arrayContaining(lang === "es" ? ["/aviso-legal", "/privacidad"] : ["/en/legal-notice", "/en/privacy"]),
    );
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${f.server.url}${path}`);
    expect(errors).toEqual([]);
    await close();
  });

  test("titles and descriptions differ on every page", async () => {
    const heads = await Promise.all(
      ["/", "/en", "/aviso-legal", "/en/legal-notice", "/privacidad", "/en/privacy", "/login", "/en/login"].map(
        async (path) => {
          const html = await (await fetch(`${f.server.url}${path}`)).text();
          return {
            title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
            description: /<meta name="description" content="([^"]*)"/.exec(html)?.[1],
            og: /<meta property="og:title" content="([^"]*)"/.exec(html)?.[1],
            jsonLd: html.includes('"@type":"Organization"') && html.includes('"@type":"WebSite"'),
          };
        },
      ),
    );
    expect(new Set(heads.map((h) => h.title)).size).toBe(heads.length);
    expect(new Set(heads.map((h) => h.description)).size).toBe(heads.length);
    for (const head of heads) {
      expect(head.og).toBe(head.title);
      expect(head.jsonLd).toBe(true);
    }
  });
});

describe("login information page", () => {
  test.each([
    {
      path: "/login",
      lang: "es",
      contact: "/#contact",
      cta: "Solicita una demo",
      mfa: "Autenticación multifactor",
    },
    {
      path: "/en/login",
      lang: "en",
      contact: "/en#contact",
      cta: "Request a demo",
      mfa: "Multi-factor authentication",
    },
  ])(
    "$path explains access and offers the contact form, with no sign-in form",
    async ({ path, lang, contact, cta, mfa }) => {
      const { page, errors, close } = await openPage(f.browser, { viewport: { width: 1280, height: 900 } });
      await page.goto(`${f.server.url}${path}`);
      expect(await page.getAttribute("html", "lang")).toBe(lang);
      await expect(page.getByRole("heading", { name: mfa }).isVisible()).resolves.toBe(true);
      await expect(page.getByRole("main").getByRole("link", { name: cta }).getAttribute("href")).resolves.toBe(contact);
      expect(await page.locator("main form, main input[type=password]").count()).toBe(0);
      expect(errors).toEqual([]);
      await close();
    },
  );
});

describe("with PLATFORM_URL set", () => {
  const g = setupServerAndBrowser({ PLATFORM_URL: "https://app.example.com/signin" });

  test("the menu's log in entry goes to the platform, and /login redirects there", async () => {
    const { page, close } = await openPage(g.browser, { locale: "es-ES", viewport: { width: 1440, height: 900 } });
    await page.goto(`${g.server.url}/`);
    const login = page.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", { name: "Acceder" });
    await expect(login.getAttribute("href")).resolves.toBe("https://app.example.com/signin");
    const response = await fetch(`${g.server.url}/login`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://app.example.com/signin");
    await close();
  });
});
