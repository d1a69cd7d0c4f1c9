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

  test.each(schemes)("the contact form's success toast in %s mode has no axe violations", async (colorScheme) => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 1280, height: 900 },
      colorScheme,
    });
    await page.goto(`${f.server.url}/#contact`);
    await page.waitForFunction(() => (document.getElementById("contact-form") as HTMLFormElement | null)?.noValidate);
    await scrollThrough(page);
    const form = page.locator("#contact");
    await form.getByLabel("Nombre").fill("Ana");
    await form.getByLabel("Apellidos").fill("Núñez");
    await form.getByLabel("Correo electrónico").fill("ana@example.com");
    await form.getByLabel("Empresa").fill("ACME");
    // The time trap wants a person's pace.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await page.getByRole("button", { name: "Solicitar demo" }).click();
    await expect.poll(() => page.locator(".contact-toasts .toast").count(), { timeout: 10_000 }).toBe(1);
    await page.waitForFunction(() => document.querySelector(".contact-toasts .toast.show") !== null);
    const violations = await axeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    // axe leaves translucent and fixed backgrounds "incomplete": measure the toast's text itself.
    const toast = await page.evaluate(() => {
      const body = document.querySelector(".contact-toasts .toast-body") as HTMLElement;
      const rect = body.getBoundingClientRect();
      const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      return {
        color: getComputedStyle(body).color,
        background: getComputedStyle(body.closest(".toast") as HTMLElement).backgroundColor,
        inViewport: rect.top >= 0 && rect.bottom <= window.innerHeight,
        // Not clipped away by an ancestor: the body's centre hits the toast.
        visible: hit !== null && body.closest(".toast")?.contains(hit) === true,
      };
    });
    expect(toast.inViewport).toBe(true);
    expect(toast.visible).toBe(true);
    expect(contrast(toast.color, toast.background), JSON.stringify(toast)).toBeGreaterThanOrEqual(4.5);
    expect(errors).toEqual([]);
    await close();
  });
});

/** WCAG contrast of two opaque computed colours ("rgb(r, g, b)"); a translucent one counts as unmeasurable (0). */
function contrast(a: string, b: string): number {
  const parse = (css: string) => {
    const parts = css.match(/[\d.]+/g)?.map(Number) ?? [];
    if (parts.length < 3 || (parts.length > 3 && parts[3] !== 1)) return undefined;
    const [r, g, bl] = parts.slice(0, 3).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const la = parse(a);
  const lb = parse(b);
  if (la === undefined || lb === undefined) return 0;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}
