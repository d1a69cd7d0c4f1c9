/**
 * Issue 20, defect 3: no /app page scrolls sideways on a 390 px phone, in light and dark mode.
 * The pages before one is signed in with a second factor: sign-in (both steps), first-run setup,
 * password reset, invitation and the enrolment page. Every page after sign-in, at 320 to 1440 px,
 * is tests/e2e/app-pages.test.ts's.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, switchColorMode, visitorUserAgent } from "../support/browser.ts";
import { httpClient, httpPassword } from "../support/http-session.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { totpFromUri } from "../support/totp.ts";

const phone = { width: 390, height: 844 };
const schemes = ["light", "dark"] as const;
let server: RunningServer;
let browser: Browser;
let setupPath = "";
/** The owner's cookies once setup is done and before the second factor is enrolled. */
let enrolmentCookie = "";

beforeAll(async () => {
  server = await startServer({ waitUntilHealthy: false });
  const deadline = Date.now() + 100_000;
  while ((await fetch(`${server.url}/healthz`).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${server.output.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  setupPath = new URL(readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim()).pathname;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** How far the page reaches to the right, and the widest elements if it is wider than the phone. */
async function widthOf(page: Page) {
  return page.evaluate((limit) => {
    const scrollWidth = document.documentElement.scrollWidth;
    const culprits =
      scrollWidth <= limit
        ? []
        : [...document.querySelectorAll("body *")]
            .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
            .slice(0, 5)
            .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`);
    return { scrollWidth, culprits };
  }, phone.width);
}

/** A phone-sized context in light mode (each page is then measured in both modes by tooWide). */
async function newContext(locale: string, cookie = ""): Promise<BrowserContext> {
  const context = await browser.newContext({
    userAgent: visitorUserAgent(browser),
    viewport: phone,
    colorScheme: "light",
    locale,
  });
  const cookies = cookie
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part.includes("="))
    .map((part) => {
      const at = part.indexOf("=");
      return { name: part.slice(0, at), value: part.slice(at + 1), url: server.url };
    });
  if (cookies.length > 0) await context.addCookies(cookies);
  return context;
}

/**
 * Visits each path and records, per colour mode and path, the page's width when it is wider than
 * the phone. Each page is loaded once and measured in both modes: dark is what the colour toggle
 * sets (`data-bs-theme` on <html>, which every dark style keys on), so no second load is needed.
 */
async function tooWide(context: BrowserContext, paths: readonly string[], openMenus = false) {
  const page = await context.newPage();
  const found: Record<string, { scrollWidth: number; culprits: string[] }> = {};
  for (const pathname of paths) {
    const response = await page.goto(`${server.url}${pathname}`);
    expect(response?.status(), pathname).toBeLessThan(500);
    await page.waitForLoadState("load");
    for (const scheme of schemes) {
      await switchColorMode(page, scheme);
      const closed = await widthOf(page);
      if (closed.scrollWidth > phone.width) found[`${scheme} ${pathname}`] = closed;
      if (!openMenus) continue;
      // The admin and user menus are <details>: open each, measure, close it.
      for (const summary of await page.locator("header details > summary").all()) {
        await summary.click();
        const open = await widthOf(page);
        if (open.scrollWidth > phone.width) found[`${scheme} ${pathname} (${await summary.textContent()} open)`] = open;
        await summary.click();
      }
    }
  }
  await page.close();
  return found;
}

describe("no sideways scrolling at 390 px on /app", () => {
  test("signed out: sign-in, setup, reset and invitation pages, es and en, light and dark", async () => {
    const paths = ["/app/login", setupPath, "/app/reset", "/app/reset/not-a-token", "/app/invite/not-a-token"];
    for (const locale of ["es-ES", "en-GB"]) {
      const context = await newContext(locale);
      expect(await tooWide(context, paths), locale).toEqual({});
      await context.close();
    }
  }, 300_000);

  // Every signed-in page at every width is tests/e2e/app-pages.test.ts's (in-process, one browser).
  test("signed in: second-factor step and enrolment", async () => {
    // The owner sets up over HTTP and stops at the enrolment page.
    const owner = httpClient(server.url);
    const setup = await owner.request(setupPath, {
      form: { organizationName: "Org Phone", name: "Ana", email: "ana@example.com", password: httpPassword },
    });
    expect(setup.status).toBe(302);
    enrolmentCookie = owner.cookie;
    const enrolment = await newContext("es-ES", enrolmentCookie);
    expect(await tooWide(enrolment, ["/app/mfa"])).toEqual({});
    await enrolment.close();
    const mfaPage = await (await owner.request("/app/mfa")).text();
    const uri = mfaPage.match(/otpauth:\/\/totp\/[^<"\s]+/)?.[0]?.replaceAll("&amp;", "&") ?? "";
    const verified = await owner.request("/app/mfa", { form: { intent: "verify", code: totpFromUri(uri) } });
    expect(verified.status).toBe(302);

    // The second step of a later sign-in (password accepted, code not yet given).
    const second = httpClient(server.url);
    const signIn = await second.request("/app/login", {
      form: { intent: "password", email: "ana@example.com", password: httpPassword },
    });
    expect(signIn.status).toBe(302);

    const secondStep = await newContext("es-ES", second.cookie);
    expect(await tooWide(secondStep, ["/app/login"]), "second step").toEqual({});
    await secondStep.close();
  }, 300_000);
});
