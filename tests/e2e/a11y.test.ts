/** axe-core (WCAG 2.2 A and AA rules) on the home pages, a legal page, the error pages and the contact form's errors, in light and dark mode. */
import axe from "axe-core";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { openPage } from "../support/browser.ts";
import { scrollThrough, setupServerAndBrowser } from "../support/home-fixtures.ts";

const f = setupServerAndBrowser();

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const schemes = ["light", "dark"] as const;

/** Runs axe in the page; the CSP allows no foreign inline script, so axe's source is evaluated instead. */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
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

const cases = ["/", "/en", "/aviso-legal", "/en/login"].flatMap((path) =>
  schemes.map((colorScheme) => ({ path, colorScheme })),
);

describe("accessibility", () => {
  test.each(cases)("$path in $colorScheme mode has no axe violations", async ({ path, colorScheme }) => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: path.startsWith("/en") ? "en-GB" : "es-ES",
      viewport: { width: 1280, height: 900 },
      colorScheme,
    });
    await page.goto(`${f.server.url}${path}`);
    expect(new URL(page.url()).pathname).toBe(path);
    expect(await page.getAttribute("html", "data-bs-theme")).toBe(colorScheme);
    await scrollThrough(page);
    const violations = await axeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  const errorCases = ["/fr", "/en/x"].flatMap((path) => schemes.map((colorScheme) => ({ path, colorScheme })));
  test.each(errorCases)(
    "the 404 page $path in $colorScheme mode has no axe violations",
    async ({ path, colorScheme }) => {
      const { page, close } = await openPage(f.browser, {
        locale: path.startsWith("/en") ? "en-GB" : "es-ES",
        viewport: { width: 1280, height: 900 },
        colorScheme,
      });
      const response = await page.goto(`${f.server.url}${path}`);
      expect(response?.status()).toBe(404);
      expect(await page.getAttribute("html", "data-bs-theme")).toBe(colorScheme);
      const violations = await axeViolations(page);
      expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
      await close();
    },
  );

  // Both schemes by the browser's preference, and dark by the site's own switch on a light-preferring browser.
  const formCases = (["/", "/en"] as const).flatMap((path) => [
    ...schemes.map((colorScheme) => ({ path, colorScheme, via: "preference" as const })),
    { path, colorScheme: "dark" as const, via: "switch" as const },
  ]);
  test.each(formCases)(
    "$path after an empty contact submit in $colorScheme mode (by $via) has no axe violations",
    async ({ path, colorScheme, via }) => {
      const en = path.startsWith("/en");
      const { page, errors, close } = await openPage(f.browser, {
        locale: en ? "en-GB" : "es-ES",
        viewport: { width: 1280, height: 900 },
        colorScheme: via === "switch" ? "light" : colorScheme,
      });
      await page.goto(`${f.server.url}${path}`);
      await page.waitForFunction(() => (document.getElementById("contact-form") as HTMLFormElement | null)?.noValidate);
      if (via === "switch") {
        await page
          .getByRole("navigation", { name: en ? "Main navigation" : "Navegación principal" })
          .getByRole("button", { name: en ? "Dark mode" : "Modo oscuro" })
          .click();
      }
      expect(await page.getAttribute("html", "data-bs-theme")).toBe(colorScheme);
      await scrollThrough(page);
      await page.getByRole("button", { name: en ? "Request a demo" : "Solicitar demo" }).click();
      await expect
        .poll(() => page.locator("#contact .invalid-feedback").count(), { timeout: 10_000 })
        .toBeGreaterThan(0);
      const violations = await axeViolations(page);
      expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
      expect(errors).toEqual([]);
      await close();
    },
  );
});
