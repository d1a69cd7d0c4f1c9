/** Debian's Chromium through playwright-core; pages fail the test on console errors. */
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";

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
