/** axe-core (WCAG 2.2 A and AA rules) on the home pages and a legal page, in light and dark mode. */
import axe from "axe-core";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { openPage, switchColorMode } from "../support/browser.ts";
import { scrollThrough, setupServerAndBrowser } from "../support/home-fixtures.ts";

const f = setupServerAndBrowser();

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Each page is opened once, in the mode its system preference gives, audited, then switched to
 * the other mode as the colour toggle does (`data-bs-theme` on <html>) and audited again: the
 * pages below start in dark, the form cases in light, so both modes are reached both ways.
 */
const cases = ["/", "/en", "/aviso-legal", "/app/login"].map((path) => ({
  path,
  colorScheme: "dark" as const,
  switchedTo: "light" as const,
}));

/** axe's WCAG rules on the page as it is now. */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // The CSP allows no foreign inline script: evaluate axe's source instead of adding a <script>.
  await page.evaluate(axe.source);
  return (await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String), failureSummary: n.failureSummary })),
    }));
  })) as AxeViolation[];
}

/** A page of the site at desktop width, in its language, with the system's colour preference. */
function openAt(path: string, colorScheme: "light" | "dark") {
  return openPage(f.browser, {
    locale: path.startsWith("/en") ? "en-GB" : "es-ES",
    viewport: { width: 1280, height: 900 },
    colorScheme,
  });
}

/** axe at the top of the page in its mode, then again in the other mode. */
async function expectCleanInBothModes(page: Page, switchedTo: "light" | "dark"): Promise<void> {
  // Back to the top: axe counts a control that happens to sit under the sticky header at
  // the final scroll position as obscured, which is a property of that position, not the page.
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  const violations = await axeViolations(page);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  await switchColorMode(page, switchedTo);
  const switched = await axeViolations(page);
  expect(switched, `${switchedTo}: ${JSON.stringify(switched, null, 2)}`).toEqual([]);
}

const formCases = ["/", "/en"].map((path) => ({ path, colorScheme: "light" as const, switchedTo: "dark" as const }));

describe("accessibility", () => {
  test.each(formCases)(
    "$path in $colorScheme mode, then $switchedTo, has no axe violations after an empty submit of the contact form",
    async ({ path, colorScheme, switchedTo }) => {
      const { page, errors, close } = await openAt(path, colorScheme);
      await page.goto(`${f.server.url}${path}`);
      await page.waitForLoadState("networkidle");
      // The home pages hydrate on a first interaction (decision 0116): the page's own messages need it.
      await page.keyboard.press("Shift");
      await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
      await scrollThrough(page);
      await page.locator('#contact button[type="submit"]').click();
      // Every required field shows its message under it.
      await expect
        .poll(() => page.locator("#contact .invalid-feedback").count(), { timeout: 10_000 })
        .toBeGreaterThan(3);
      await expectCleanInBothModes(page, switchedTo);
      expect(errors).toEqual([]);
      await close();
    },
  );

  test.each(cases)(
    "$path in $colorScheme mode, then $switchedTo, has no axe violations",
    async ({ path, colorScheme, switchedTo }) => {
      const { page, errors, close } = await openAt(path, colorScheme);
      await page.goto(`${f.server.url}${path}`);
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await page.getAttribute("html", "data-bs-theme")).toBe(colorScheme);
      await scrollThrough(page);
      await expectCleanInBothModes(page, switchedTo);
      expect(errors).toEqual([]);
      await close();
    },
  );
});
