/** Debian's Chromium through playwright-core; pages fail the test on console errors. */
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { expect } from "vitest";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags this machine needs: no sandbox as root, no GPU, no network chatter to hosts it cannot reach. */
export const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
}

export interface WatchedPage {
  page: Page;
  /** console.error messages and uncaught page errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Headless Chromium announces itself as "HeadlessChrome", which crawler
 * detection rightly flags; visitors' browsers do not, so tests use a plain UA.
 */
export function visitorUserAgent(browser: Browser): string {
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`;
}

export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ userAgent: visitorUserAgent(browser), ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, errors, close: () => context.close() };
}

/**
 * Puts the loaded page in a colour mode as the colour toggle does (`data-bs-theme` on <html>, which
 * every dark style keys on), with any colour transition run to its end, so one load can be checked
 * in both modes. Fails when the mode changed but the page's background did not (its styles did not
 * apply).
 */
export async function switchColorMode(page: Page, mode: "light" | "dark"): Promise<void> {
  const [before, after, was] = await page.evaluate((next) => {
    const root = document.documentElement;
    const previous = root.getAttribute("data-bs-theme");
    const background = getComputedStyle(document.body).backgroundColor;
    root.setAttribute("data-bs-theme", next);
    for (const animation of document.getAnimations()) {
      try {
        animation.finish();
      } catch {
        // An endless animation cannot finish; it changes no colour a check reads.
      }
    }
    return [background, getComputedStyle(document.body).backgroundColor, previous];
  }, mode);
  if (was !== mode) expect(after, `background in ${mode}`).not.toBe(before);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}
