/** Every error page has a <title> in the visitor's language, in the server's HTML and after hydration. */
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { openPage } from "../support/browser.ts";
import { setupServerAndBrowser } from "../support/home-fixtures.ts";

const f = setupServerAndBrowser();

const expected = {
  es: { notFound: "Página no encontrada · Vigía Normativo", other: "Error 405 · Vigía Normativo" },
  en: { notFound: "Page not found · Vigía Normativo", other: "Error 405 · Vigía Normativo" },
} as const;

/** The <title> elements inside <head> of a server-rendered document. */
function headTitles(html: string): string[] {
  const head = html.match(/<head>([\s\S]*?)<\/head>/)?.[1] ?? "";
  return [...head.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1] ?? "");
}

/** Submits a plain form POST to a page that takes none: React Router answers 405. */
async function postTo(page: Page, path: string) {
  await page.evaluate((action) => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = action;
    document.body.append(form);
    form.submit();
  }, path);
  await page.waitForLoadState("load");
}

describe("error page titles", () => {
  test.each([
    ["/fr", "es"],
    ["/en/x", "en"],
    ["/es/whatever", "es"],
  ] as const)("the 404 page %s has a title in %s", async (path, lang) => {
    const raw = await fetch(`${f.server.url}${path}`, {
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/150.0 Safari/537.36" },
    });
    expect(raw.status).toBe(404);
    expect(headTitles(await raw.text())).toEqual([expected[lang].notFound]);

    const { page, errors, close } = await openPage(f.browser, { locale: lang === "en" ? "en-GB" : "es-ES" });
    const response = await page.goto(`${f.server.url}${path}`);
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute("html", "lang")).toBe(lang);
    // After hydration too: React must keep the title it rendered on the server.
    await page.waitForLoadState("networkidle");
    expect(await page.title()).toBe(expected[lang].notFound);
    expect(await page.locator("title").count()).toBe(1);
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    await close();
  });

  test.each([
    ["/", "es"],
    ["/en", "en"],
  ] as const)("the other error view (405 on %s) has a title in %s", async (path, lang) => {
    const { page, close } = await openPage(f.browser, { locale: lang === "en" ? "en-GB" : "es-ES" });
    await page.goto(`${f.server.url}${path}`, { referer: f.server.url });
    await postTo(page, path);
    expect(await page.textContent("main")).toContain("405");
    expect(await page.getAttribute("html", "lang")).toBe(lang);
    expect(await page.title()).toBe(expected[lang].other);
    await close();
  });
});
