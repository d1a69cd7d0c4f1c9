/** The skeleton's rules as a visitor's browser sees them. */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage } from "../support/browser";
import { type RunningServer, startServer } from "../support/server";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("in Chromium", () => {
  it("a Spanish browser gets / in Spanish with the cookie set for a year", async () => {
    const { page, errors, close } = await openPage(browser, { locale: "es-ES" });
    const response = await page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute("html", "lang")).toBe("es");
    const cookie = (await page.context().cookies()).find((c) => c.name === "locale");
    expect(cookie).toMatchObject({ value: "es", path: "/", sameSite: "Lax" });
    const lifetimeDays = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(lifetimeDays).toBeGreaterThan(364.9);
    expect(lifetimeDays).toBeLessThan(365.1);
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
    await close();
  });

  it("an English browser landing on / is sent to /en, and the cookie keeps it there", async () => {
    const { page, errors, close } = await openPage(browser, { locale: "en-GB" });
    await page.goto(`${server.url}/`);
    expect(new URL(page.url()).pathname).toBe("/en");
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await page.context().setExtraHTTPHeaders({ "accept-language": "es" });
    await page.goto(`${server.url}/`);
    expect(new URL(page.url()).pathname).toBe("/en");
    expect(errors).toEqual([]);
    await close();
  });

  it("the language switch goes to the other language and is remembered", async () => {
    const { page, errors, close } = await openPage(browser, { locale: "en-US" });
    await page.goto(`${server.url}/en`);
    await page.getByRole("link", { name: "Leer esta página en español" }).first().click();
    await page.waitForURL(`${server.url}/`);
    expect(await page.getAttribute("html", "lang")).toBe("es");
    const cookie = (await page.context().cookies()).find((c) => c.name === "locale");
    expect(cookie?.value).toBe("es");
    await page.goto(`${server.url}/`);
    expect(new URL(page.url()).pathname).toBe("/");
    await page.getByRole("link", { name: "Read this page in English" }).first().click();
    await page.waitForURL(`${server.url}/en`);
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(errors).toEqual([]);
    await close();
  });

  it("/es lands on /", async () => {
    const { page, close } = await openPage(browser, { locale: "es-ES" });
    await page.goto(`${server.url}/es`);
    expect(new URL(page.url()).pathname).toBe("/");
    await close();
  });

  it.each([
    ["/fr", "es"],
    ["/en/anything", "en"],
  ])("%s shows the 404 view in %s", async (path, lang) => {
    const { page, close } = await openPage(browser);
    const response = await page.goto(`${server.url}${path}`);
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute("html", "lang")).toBe(lang);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Page Not Found");
    expect(await page.textContent("main")).toContain(`Page not found: ${path}`);
    await close();
  });

  it("other errors show the other view with their status", async () => {
    const { page, close } = await openPage(browser);
    const response = await page.goto(`${server.url}/`, { referer: server.url });
    expect(response?.status()).toBe(200);
    // A form POST to a page that takes none: React Router answers 405.
    await page.evaluate(() => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = "/";
      document.body.append(form);
      form.submit();
    });
    await page.waitForLoadState("load");
    const heading = await page.getByRole("heading", { level: 1 }).textContent();
    expect(heading).toBe("Method Not Allowed");
    expect(await page.textContent("main")).toContain("405");
    expect(await page.textContent("main")).not.toContain("Page Not Found");
    await close();
  });

  it("hydrates the server-rendered page without errors", async () => {
    const { page, errors, close } = await openPage(browser, { locale: "es-ES" });
    await page.goto(`${server.url}/`);
    // The home page hydrates on a first interaction (decision 0116).
    await page.keyboard.press("Shift");
    await page.waitForFunction(() => "__reactRouterRouteModules" in window);
    expect(await page.locator("h1").count()).toBe(1);
    expect(errors).toEqual([]);
    await close();
  });
});

describe("client start", () => {
  it("logs a failed start as an error while mounting the app, then rethrows it", async () => {
    const { page, errors, close } = await openPage(browser);
    // Hide React Router's server context from the client so that hydration cannot start.
    await page.addInitScript(() => {
      Object.defineProperty(window, "__reactRouterContext", {
        configurable: false,
        get: () => undefined,
        set: () => {},
      });
    });
    await page.goto(`${server.url}/en`);
    // The home page starts its modules on a first interaction (decision 0116).
    await page.keyboard.press("Shift");
    // Waits for the condition, not a fixed time: a busy machine mounts later.
    await expect
      .poll(() => errors.some((message) => message.startsWith("Error while mounting the app:")), { timeout: 15_000 })
      .toBe(true);
    // Rethrown: the same failure also reaches the page as an uncaught error.
    expect(errors.length).toBeGreaterThanOrEqual(2);
    await close();
  });
});
