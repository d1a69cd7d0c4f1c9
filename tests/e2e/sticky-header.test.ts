/** The header stays on screen while reading the home page, and its menu marks the section in view. */
import { describe, expect, test } from "vitest";
import { openPage } from "../support/browser.ts";
import { setupServerAndBrowser } from "../support/home-fixtures.ts";

const f = setupServerAndBrowser();

// The contract's section ids, in page order; all but the intro have a menu link.
const sections = ["intro", "collaboration", "architecture", "use-cases", "contact"] as const;

const cases = [390, 1440].flatMap((width) => (["/", "/en"] as const).map((path) => ({ width, path })));

describe("sticky header and scrollspy", () => {
  test.each(cases)("at $width px on $path", async ({ width, path }) => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: path === "/en" ? "en-GB" : "es-ES",
      viewport: { width, height: width < 700 ? 844 : 900 },
    });
    await page.goto(`${f.server.url}${path}`);
    // Hydrated: the scrollspy runs in React.
    await page.waitForLoadState("networkidle");
    const prefix = path === "/en" ? "/en" : "/";
    for (const id of sections) {
      await page.evaluate((target) => document.getElementById(target)?.scrollIntoView({ behavior: "instant" }), id);
      const expectedHref = id === "intro" ? null : `${prefix}#${id}`;
      await expect
        .poll(
          () =>
            page.evaluate(() =>
              [...document.querySelectorAll("header nav a[aria-current]")].map((a) => a.getAttribute("href")),
            ),
          { timeout: 5_000, message: `aria-current after scrolling to #${id}` },
        )
        .toEqual(expectedHref ? [expectedHref] : []);
      if (expectedHref) {
        expect(await page.getAttribute(`header nav a[href="${expectedHref}"]`, "aria-current")).toMatch(
          /^(true|location)$/,
        );
      }
      const geometry = await page.evaluate((target) => {
        const header = document.querySelector("header")?.getBoundingClientRect();
        const heading = document.getElementById(target)?.querySelector("h1, h2")?.getBoundingClientRect();
        return {
          scrollY: window.scrollY,
          viewport: window.innerHeight,
          headerTop: header?.top ?? Number.NaN,
          headerBottom: header?.bottom ?? Number.NaN,
          headingTop: heading?.top ?? Number.NaN,
        };
      }, id);
      // The header is on screen, at the top, whatever has been scrolled.
      expect(geometry.headerTop, `header top at #${id}`).toBe(0);
      expect(geometry.headerBottom).toBeGreaterThan(0);
      expect(geometry.headerBottom).toBeLessThan(geometry.viewport / 3);
      if (id !== "intro") {
        expect(geometry.scrollY, `page scrolled for #${id}`).toBeGreaterThan(geometry.headerBottom);
        // The anchor lands below the header: the section's heading is not hidden under it.
        expect(geometry.headingTop, `heading of #${id} below the header`).toBeGreaterThanOrEqual(geometry.headerBottom);
      }
    }
    expect(errors).toEqual([]);
    await close();
  });
});
