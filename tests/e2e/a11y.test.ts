/** axe-core (WCAG 2.2 A and AA rules) on the home pages and a legal page, in light and dark mode. */
import axe from "axe-core";
import { describe, expect, test } from "vitest";
import { openPage } from "../support/browser.ts";
import { scrollThrough, setupServerAndBrowser } from "../support/home-fixtures.ts";

const f = setupServerAndBrowser();

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const cases = ["/", "/en", "/aviso-legal", "/app/login"].flatMap((path) =>
  (["light", "dark"] as const).map((colorScheme) => ({ path, colorScheme })),
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
    // The CSP allows no foreign inline script: evaluate axe's source instead of adding a <script>.
    await page.evaluate(axe.source);
    const violations = (await page.evaluate(async () => {
      const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
      });
      return result.violations.map((v) => ({
        id: v.id,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.map(String), failureSummary: n.failureSummary })),
      }));
    })) as AxeViolation[];
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });
});
