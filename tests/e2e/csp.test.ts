/**
 * The Content-Security-Policy as a browser enforces it: the app's own inline scripts
 * run, a script that reaches the rendered HTML any other way does not, whether the
 * page was rendered for this request (nonce) or came from the page cache (hashes).
 */
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

/** What a stored-XSS in rendered content would look like: a script inside the page's main text. */
const injected = '<script>window.__injected = "ran"</script>';

async function visitWithInjection(pathname: string) {
  const { page, close } = await openPage(browser, { locale: "en-GB" });
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  let policy = "";
  // The document arrives from the real server with its real headers; only its body gains the script.
  await page.route(`${server.url}${pathname}`, async (route) => {
    const response = await route.fetch();
    policy = response.headers()["content-security-policy"] ?? "";
    const html = (await response.text()).replace("<main", `${injected}<main`);
    await route.fulfill({ response, body: html });
  });
  await page.goto(`${server.url}${pathname}`);
  await page.waitForLoadState("networkidle");
  // The home pages load their modules on a first interaction (app/.server/hydrate-on-interaction.ts):
  // a key press, then wait for them (a policy that blocked them would keep the page from ever
  // hydrating).
  await page.keyboard.press("Shift");
  await page
    .waitForFunction(() => "__reactRouterRouteModules" in window, undefined, { timeout: 15_000 })
    .catch(() => {});
  const result = await page.evaluate(() => ({
    injected: (window as unknown as { __injected?: string }).__injected ?? null,
    // Set by the app's inline breakpoint script before hydration.
    breakpointClass: [...document.body.classList].some((name) => /^bp-(xs|sm|md|lg|xl|xxl)$/.test(name)),
    // Set by React Router's inline module scripts once the app hydrates.
    hydrated: "__reactRouterRouteModules" in window,
  }));
  await close();
  return { ...result, policy, violations };
}

describe("content security policy in Chromium", () => {
  it("blocks a script injected into a page rendered for the request, runs the app's own", async () => {
    const result = await visitWithInjection("/en?fresh=1");
    expect(result.policy).toMatch(/script-src 'self' 'nonce-/);
    expect(result.injected).toBeNull();
    expect(result.violations.length).toBeGreaterThan(0);
    expect(result.breakpointClass).toBe(true);
    expect(result.hydrated).toBe(true);
  });

  it("blocks it in a page served from the page cache, whose policy lists hashes", async () => {
    await fetch(`${server.url}/en`);
    const result = await visitWithInjection("/en");
    expect(result.policy).toMatch(/script-src 'self' 'sha256-/);
    expect(result.policy).not.toContain("'nonce-");
    expect(result.injected).toBeNull();
    expect(result.violations.length).toBeGreaterThan(0);
    expect(result.breakpointClass).toBe(true);
    expect(result.hydrated).toBe(true);
  });
});
