/** Reading the home page: the menu stays on screen and marks the section in view. */
import { describe, expect, test } from "vitest";
import { menuSections } from "../../app/components/layout/site-header.tsx";
import { openPage } from "../support/browser.ts";
import { setupServerAndBrowser } from "../support/home-fixtures.ts";

const f = setupServerAndBrowser();

const cases = [
  { width: 1440, path: "/", locale: "es-ES" },
  { width: 390, path: "/en", locale: "en-GB" },
];

describe("sticky menu with the section in view", () => {
  test.each(cases)("at $width px on $path", async ({ width, path, locale }) => {
    const { page, errors, close } = await openPage(f.browser, { locale, viewport: { width, height: 800 } });
    await page.goto(`${f.server.url}${path}`);
    await page.waitForLoadState("networkidle");
    // The home pages hydrate on a first interaction (decision 0116): the menu marks sections once they have.
    await page.keyboard.press("Shift");
    await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
    for (const [id] of menuSections) {
      // Scroll as a reader would, to the start of the section (anchors land below the header).
      await page.evaluate((sectionId) => {
        const section = document.getElementById(sectionId);
        const top = (section?.getBoundingClientRect().top ?? 0) + window.scrollY - 80;
        window.scrollTo({ top, behavior: "instant" });
      }, id);
      await page.waitForTimeout(300);
      const header = await page.locator("header.site-header").boundingBox();
      expect(header, `header at #${id}`).not.toBeNull();
      // The header is on screen, at the top, however far the page has scrolled.
      expect(Math.round(header?.y ?? -1), `header top at #${id}`).toBe(0);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
      if (width >= 1200) {
        // The wide menu shows the section in view; only its link is current.
        const current = page.locator('#site-menu a[aria-current="true"]');
        await expect.poll(() => current.count(), { timeout: 5_000 }).toBe(1);
        expect(await current.getAttribute("href")).toMatch(new RegExp(`#${id}$`));
      } else {
        // The phone menu is folded: opened, it shows the section in view as current.
        // A tap on the toggle (a locator click would first scroll it "into view").
        const toggle = await page.getByRole("button", { name: /menu|menú/i }).boundingBox();
        await page.mouse.click(
          (toggle?.x ?? 0) + (toggle?.width ?? 0) / 2,
          (toggle?.y ?? 0) + (toggle?.height ?? 0) / 2,
        );
        await expect.poll(() => page.locator("#site-menu").isVisible()).toBe(true);
        const current = page.locator('#site-menu a[aria-current="true"]');
        await expect.poll(() => current.count(), { timeout: 5_000 }).toBe(1);
        expect(await current.getAttribute("href")).toMatch(new RegExp(`#${id}$`));
        await page.keyboard.press("Escape");
      }
      // The section's heading is not hidden under the header.
      const heading = await page.locator(`#${id} h2`).first().boundingBox();
      expect(heading?.y ?? 0).toBeGreaterThanOrEqual((header?.height ?? 0) - 1);
    }
    expect(errors).toEqual([]);
    await close();
  });
});
