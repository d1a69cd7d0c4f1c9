/** Shared setup of the home issue's browser tests: one production server and one Chromium per file. */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "./browser.ts";
import { type RunningServer, startServer } from "./server.ts";

export interface HomeFixtures {
  server: RunningServer;
  browser: Browser;
}

export function setupServerAndBrowser(env: Record<string, string> = {}): HomeFixtures {
  const fixtures = {} as HomeFixtures;
  beforeAll(async () => {
    fixtures.server = await startServer({ env: { LOG_LEVEL: "warn", ...env } });
    fixtures.browser = await launchBrowser();
  });
  afterAll(async () => {
    await fixtures.browser?.close();
    await fixtures.server?.stop();
  });
  return fixtures;
}

/** Scrolls through the whole page so every scroll-in animation has run. */
export async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const step = Math.max(200, window.innerHeight / 2);
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    window.scrollTo(0, document.documentElement.scrollHeight);
    await new Promise((resolve) => setTimeout(resolve, 600));
  });
}
