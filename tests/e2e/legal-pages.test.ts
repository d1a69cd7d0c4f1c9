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
      ["/", "/en", "/aviso-legal", "/en/legal-notice", "/privacidad", "/en/privacy"].map(async (path) => {
        const html = await (await fetch(`${f.server.url}${path}`)).text();
        return {
          title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
          description: /<meta name="description" content="([^"]*)"/.exec(html)?.[1],
          og: /<meta property="og:title" content="([^"]*)"/.exec(html)?.[1],
          jsonLd: html.includes('"@type":"Organization"') && html.includes('"@type":"WebSite"'),
        };
      }),
    );
    expect(new Set(heads.map((h) => h.title)).size).toBe(heads.length);
    expect(new Set(heads.map((h) => h.description)).size).toBe(heads.length);
    for (const head of heads) {
      expect(head.og).toBe(head.title);
      expect(head.jsonLd).toBe(true);
    }
  });
});

describe("log in", () => {
  test.each([
    { path: "/login", cookie: null },
    { path: "/en/login", cookie: "locale=en" },
  ])("$path redirects to the platform's sign-in", async ({ path, cookie }) => {
    const response = await fetch(`${f.server.url}${path}`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/app/login");
    const setCookie = response.headers.get("set-cookie");
    if (cookie) expect(setCookie).toContain(cookie);
    else expect(setCookie).toBeNull();
  });

  test("the platform's sign-in page has a labelled form in the visitor's language", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "en-GB",
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(`${f.server.url}/en/login`);
    expect(new URL(page.url()).pathname).toBe("/app/login");
    await expect(page.getByLabel("Email").isVisible()).resolves.toBe(true);
    await expect(page.getByLabel("Password").isVisible()).resolves.toBe(true);
    expect(errors).toEqual([]);
    await close();
  });
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
