import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { openPage } from "../support/browser.ts";
import { setupServerAndBrowser } from "../support/home-fixtures.ts";

const f = setupServerAndBrowser();

/** The home pages hydrate on a first interaction (decision 0116): waits until React has (app/root.tsx). */
async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"), undefined, {
    timeout: 15_000,
  });
}

/** A first interaction that changes nothing on the page, then hydration. */
async function interactAndHydrate(page: Page): Promise<void> {
  await page.keyboard.press("Shift");
  await waitForHydration(page);
}

/** What of the app's JavaScript has started. */
function notStarted(page: Page) {
  return page.evaluate(() => ({
    modules: document.querySelectorAll('script[type="module"]').length,
    preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
    routeModules: "__reactRouterRouteModules" in window,
    hydrated: document.documentElement.hasAttribute("data-hydrated"),
  }));
}

/** Holds the app's modules on their way until release() (the page stays as before hydration until then). */
async function holdModules(page: Page): Promise<() => void> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/[^?]*\.js(\?.*)?$/, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

describe("home page", () => {
  test("sections come in order with their ids, one h1, lang set", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${f.server.url}/`);
    const ids = await page.locator("main > section").evaluateAll((sections) => sections.map((s) => s.id));
    expect(ids).toEqual(["intro", "collaboration", "architecture", "use-cases", "contact"]);
    expect(await page.locator("h1").count()).toBe(1);
    expect(await page.getAttribute("html", "lang")).toBe("es");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toContain("normativa");
    expect(errors).toEqual([]);
    await close();
  });

  test("menu entries in order, then log in, language switch and colour mode", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${f.server.url}/en`);
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    const links = nav.getByRole("link");
    const found = await links.evaluateAll((anchors) =>
      anchors.map((a) => [a.textContent?.trim(), a.getAttribute("href")]),
    );
    expect(found).toEqual([
      ["Vigía Normativo", "/en"],
      ["Team collaboration", "/en#collaboration"],
      ["Architecture and technology", "/en#architecture"],
      ["Use cases", "/en#use-cases"],
      ["Contact", "/en#contact"],
      ["Log in", "/en/login"],
      ["Español", "/?locale=es"],
    ]);
    await expect(nav.getByRole("button", { name: "Dark mode" }).isVisible()).resolves.toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  test("the intro's call to action leads to the contact form", async () => {
    const { page, close } = await openPage(f.browser, { locale: "es-ES", viewport: { width: 1440, height: 900 } });
    await page.goto(`${f.server.url}/`);
    await expect(page.getByRole("link", { name: "Solicita una demo" }).getAttribute("href")).resolves.toBe("#contact");
    await close();
  });

  test("scrollspy marks the section in view and the language switch follows it", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${f.server.url}/`);
    await interactAndHydrate(page);
    const nav = page.getByRole("navigation", { name: "Navegación principal" });
    const architecture = nav.getByRole("link", { name: "Arquitectura y tecnología" });
    await expect(architecture.getAttribute("aria-current")).resolves.toBeNull();
    await page.evaluate(() => document.getElementById("architecture")?.scrollIntoView({ behavior: "instant" }));
    await page.waitForFunction(
      () => document.querySelector('a[href="/#architecture"]')?.getAttribute("aria-current") === "true",
    );
    await expect(nav.getByRole("link", { name: "Casos de uso" }).getAttribute("aria-current")).resolves.toBeNull();
    await expect(nav.getByRole("link", { name: "Read this page in English" }).getAttribute("href")).resolves.toBe(
      "/en#architecture",
    );
    await page.evaluate(() => document.getElementById("use-cases")?.scrollIntoView({ behavior: "instant" }));
    await page.waitForFunction(
      () => document.querySelector('a[href="/#use-cases"]')?.getAttribute("aria-current") === "true",
    );
    await expect(architecture.getAttribute("aria-current")).resolves.toBeNull();
    expect(errors).toEqual([]);
    await close();
  });

  test("the small-screen menu opens, closes with Escape and returns focus", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${f.server.url}/`);
    const toggle = page.getByRole("button", { name: "Abrir o cerrar el menú" });
    const contact = page.getByRole("link", { name: "Contacto", exact: true });
    await expect(contact.isVisible()).resolves.toBe(false);
    await toggle.click();
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("true");
    await contact.waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("false");
    await contact.waitFor({ state: "hidden" });
    await expect(toggle.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  test("fetches and runs no module until a first interaction, then hydrates (es and en)", async () => {
    for (const path of ["/", "/en"]) {
      // Served: no module preload in the page, the module script inert, a loader after it.
      const html = await (await fetch(`${f.server.url}${path}`)).text();
      expect(html).not.toMatch(/<link rel="modulepreload"/);
      expect(html).toMatch(/<script nonce="[^"]*" type="text\/x-deferred-module" id="rr-deferred-module"/);
      const { page, errors, close } = await openPage(f.browser, { locale: "es-ES", colorScheme: "light" });
      const scripts: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script" || /\.js$/.test(new URL(request.url()).pathname))
          scripts.push(request.url());
      });
      await page.goto(`${f.server.url}${path}`);
      await page.waitForLoadState("networkidle");
      // Some more time without input: still nothing.
      await page.waitForTimeout(1000);
      expect(scripts).toEqual([]);
      await expect(notStarted(page)).resolves.toEqual({
        modules: 0,
        preloads: 0,
        routeModules: false,
        hydrated: false,
      });
      // A keyboard user's first Tab: the page hydrates, and the focus stays where the Tab put it.
      await page.keyboard.press("Tab");
      await waitForHydration(page);
      expect(scripts.length).toBeGreaterThan(3);
      await expect(page.evaluate(() => document.activeElement?.className)).resolves.toContain("skip-link");
      await page.keyboard.press("Tab");
      await expect(page.evaluate(() => document.activeElement?.className)).resolves.toContain("navbar-brand");
      expect(errors).toEqual([]);
      await close();
    }
  });

  test("a click on the colour toggle before hydration switches the mode, and hydrates the page", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
      colorScheme: "light",
    });
    const release = await holdModules(page);
    await page.goto(`${f.server.url}/`);
    await page.waitForLoadState("load");
    const toggle = page.getByRole("button", { name: "Modo oscuro" });
    await toggle.click();
    // Switched at once, while the modules are still on their way.
    expect(await page.getAttribute("html", "data-bs-theme")).toBe("dark");
    await expect(toggle.getAttribute("aria-pressed")).resolves.toBe("true");
    expect((await notStarted(page)).hydrated).toBe(false);
    release();
    await waitForHydration(page);
    // React took the mode over from the page: one more click is React's, and switches back.
    expect(await page.getAttribute("html", "data-bs-theme")).toBe("dark");
    await expect(toggle.getAttribute("aria-pressed")).resolves.toBe("true");
    expect(await toggle.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps")))).toBe(true);
    await toggle.click();
    expect(await page.getAttribute("html", "data-bs-theme")).toBe("light");
    await expect(toggle.getAttribute("aria-pressed")).resolves.toBe("false");
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("site:color-mode") ?? "null"));
    expect(stored.value).toBe("light");
    expect(errors).toEqual([]);
    await close();
  });

  test("the small-screen menu opened before hydration stays open once React takes it over", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 390, height: 844 },
    });
    const release = await holdModules(page);
    await page.goto(`${f.server.url}/`);
    await page.waitForLoadState("load");
    const toggle = page.getByRole("button", { name: "Abrir o cerrar el menú" });
    const contact = page.getByRole("link", { name: "Contacto", exact: true });
    await toggle.click();
    await contact.waitFor({ state: "visible" });
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("true");
    // Escape closes it before hydration too, and the focus goes back to the toggle.
    await page.keyboard.press("Escape");
    await contact.waitFor({ state: "hidden" });
    await expect(toggle.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await toggle.click();
    await contact.waitFor({ state: "visible" });
    expect((await notStarted(page)).hydrated).toBe(false);
    release();
    await waitForHydration(page);
    await expect(contact.isVisible()).resolves.toBe(true);
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("true");
    // React's now: Escape closes it, one click opens it again.
    await page.keyboard.press("Escape");
    await contact.waitFor({ state: "hidden" });
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("false");
    await toggle.click();
    await contact.waitFor({ state: "visible" });
    await expect(toggle.getAttribute("aria-expanded")).resolves.toBe("true");
    expect(errors).toEqual([]);
    await close();
  });

  test("what is typed in the contact form before hydration is kept", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    const release = await holdModules(page);
    await page.goto(`${f.server.url}/#contact`);
    await page.waitForLoadState("load");
    const name = page.locator("#contact-name");
    await name.click();
    await page.keyboard.type("Ana");
    expect((await notStarted(page)).hydrated).toBe(false);
    release();
    await waitForHydration(page);
    await expect(name.inputValue()).resolves.toBe("Ana");
    await expect(name.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await page.keyboard.type(" Belén");
    await expect(name.inputValue()).resolves.toBe("Ana Belén");
    expect(errors).toEqual([]);
    await close();
  });

  // React Router restores a saved position on navigations only, not on hydrating: a reader who has
  // scrolled since the reload restored it stays where they are when the page hydrates.
  test("a reader who scrolled after a restored scroll position is not pulled back to it on hydration", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${f.server.url}/`);
    await page.keyboard.press("Shift");
    await waitForHydration(page);
    await page.evaluate(() => window.scrollTo({ top: 1500, behavior: "instant" }));
    // A hydrated page saves its position as it goes; the reload restores it.
    await page.reload();
    await page.waitForLoadState("load");
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(1500);
    expect((await notStarted(page)).hydrated).toBe(false);
    const release = await holdModules(page);
    await page.mouse.move(700, 500);
    await page.mouse.wheel(0, 800);
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBeGreaterThan(2000);
    const scrolled = await page.evaluate(() => Math.round(window.scrollY));
    release();
    await waitForHydration(page);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => Math.round(window.scrollY))).toBe(scrolled);
    expect(errors).toEqual([]);
    await close();
  });

  test("the code sample is highlighted on the server, with both themes and no highlighter in the browser", async () => {
    const response = await fetch(`${f.server.url}/`);
    const html = await response.text();
    expect(html).toContain('class="shiki shiki-themes snazzy-light min-dark"');
    expect(html).toContain("--shiki-dark:");
    expect(html).toContain("curl");
    // The modules are listed in data-modulepreload until the page hydrates on a first interaction.
    const deferred = /data-modulepreload="([^"]+)"/.exec(html)?.[1]?.split(" ") ?? [];
    const scripts = [
      ...[...html.matchAll(/src="(\/assets\/[^"]+\.js)"|href="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? m[2]),
      ...deferred,
    ];
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const js = await (await fetch(`${f.server.url}${src}`)).text();
      expect(js).not.toMatch(/createHighlighter|snazzy-light/);
    }
  });
});

describe("breakpoint classes on <body>", () => {
  const expected: [number, string, string[]][] = [
    [360, "xs", ["xs-up", "sm-down", "md-down", "lg-down", "xl-down", "xxl-down"]],
    [600, "sm", ["xs-up", "sm-up", "md-down", "lg-down", "xl-down", "xxl-down"]],
    [800, "md", ["xs-up", "sm-up", "md-up", "lg-down", "xl-down", "xxl-down"]],
    [1000, "lg", ["xs-up", "sm-up", "md-up", "lg-up", "xl-down", "xxl-down"]],
    [1300, "xl", ["xs-up", "sm-up", "md-up", "lg-up", "xl-up", "xxl-down"]],
    [1500, "xxl", ["xs-up", "sm-up", "md-up", "lg-up", "xl-up", "xxl-up"]],
  ];
  const bpClasses = (classes: string) =>
    classes
      .split(/\s+/)
      .filter((c) => c.startsWith("bp-"))
      .sort();
  const want = (active: string, rest: string[]) => [`bp-${active}`, ...rest.map((r) => `bp-${r}`)].sort();

  test.each(expected)("at %i px: bp-%s", async (width, active, rest) => {
    const { page, errors, close } = await openPage(f.browser, { locale: "es-ES", viewport: { width, height: 800 } });
    await page.goto(`${f.server.url}/`);
    expect(bpClasses((await page.getAttribute("body", "class")) ?? "")).toEqual(want(active, rest));
    expect(errors).toEqual([]);
    await close();
  });

  test("they follow a resize, before and after hydration, and are set before first paint", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 360, height: 800 },
    });
    await page.goto(`${f.server.url}/`);
    // Raw server HTML has the script first in <body>, ahead of any content.
    const html = await (await fetch(`${f.server.url}/`)).text();
    expect(html).toMatch(/<body[^>]*><script nonce="[^"]+">\(function\(\)\{var t=\[\["xs",0\]/);
    await page.setViewportSize({ width: 1300, height: 800 });
    await page.waitForFunction(() => document.body.classList.contains("bp-xl"));
    const classes = bpClasses((await page.getAttribute("body", "class")) ?? "");
    expect(classes).toEqual(want("xl", ["xs-up", "sm-up", "md-up", "lg-up", "xl-up", "xxl-down"]));
    await interactAndHydrate(page);
    await page.setViewportSize({ width: 700, height: 800 });
    await page.waitForFunction(() => document.body.classList.contains("bp-sm"));
    expect(bpClasses((await page.getAttribute("body", "class")) ?? "")).toEqual(
      want("sm", ["xs-up", "sm-up", "md-down", "lg-down", "xl-down", "xxl-down"]),
    );
    expect(errors).toEqual([]);
    await close();
  });
});

describe("phone widths", () => {
  /** Every public page, es and en (the 404 page carries the footer the others have). */
  const publicPages = [
    "/",
    "/en",
    "/privacidad",
    "/en/privacy",
    "/aviso-legal",
    "/en/legal-notice",
    "/app/login",
    "/no-such-page",
  ];

  /** How far the page scrolls sideways, and the outermost elements that stick out on the right. */
  function sidewaysOverflow(page: Page) {
    return page.evaluate(() => {
      const width = window.innerWidth;
      const culprits: string[] = [];
      const clips = (element: Element) => getComputedStyle(element).overflowX !== "visible";
      const walk = (element: Element) => {
        if (element.getBoundingClientRect().right > width + 0.5) {
          culprits.push(`${element.tagName.toLowerCase()}.${[...element.classList].join(".")}`);
          return;
        }
        if (clips(element)) return;
        for (const child of element.children) walk(child);
      };
      for (const child of document.body.children) walk(child);
      return { by: document.documentElement.scrollWidth - width, culprits: culprits.slice(0, 3) };
    });
  }

  test.each([320, 390])("no public page scrolls sideways at %i px", async (width) => {
    const { page, errors, close } = await openPage(f.browser, { locale: "es-ES", viewport: { width, height: 800 } });
    const found: Record<string, { by: number; culprits: string[] }> = {};
    for (const path of publicPages) {
      await page.goto(`${f.server.url}${path}`);
      if (path === "/" || path === "/en") await interactAndHydrate(page);
      const overflow = await sidewaysOverflow(page);
      if (overflow.by > 0) found[path] = overflow;
    }
    expect(found).toEqual({});
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    await close();
  });
});

describe("colour mode", () => {
  test("follows the system preference, and the toggle's choice survives a reload", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
      colorScheme: "dark",
    });
    await page.goto(`${f.server.url}/`);
    expect(await page.getAttribute("html", "data-bs-theme")).toBe("dark");
    const toggle = page.getByRole("button", { name: "Modo oscuro" });
    // aria-pressed appears once the page is hydrated.
    await interactAndHydrate(page);
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true");
    await toggle.click();
    expect(await page.getAttribute("html", "data-bs-theme")).toBe("light");
    await expect(toggle.getAttribute("aria-pressed")).resolves.toBe("false");
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(255, 255, 255)");
    await page.reload();
    expect(await page.getAttribute("html", "data-bs-theme")).toBe("light");
    await interactAndHydrate(page);
    await expect
      .poll(() => page.getByRole("button", { name: "Modo oscuro" }).getAttribute("aria-pressed"))
      .toBe("false");
    // Stored through storage.ts's format.
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("site:color-mode") ?? "null"));
    expect(stored.value).toBe("light");
    expect(stored.expiresAt).toBeGreaterThan(Date.now());
    expect(errors).toEqual([]);
    await close();
  });
});

describe("without JavaScript", () => {
  test("every section and the whole menu are visible", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 390, height: 844 },
      javaScriptEnabled: false,
    });
    await page.goto(`${f.server.url}/`);
    expect(await page.evaluate(() => document.documentElement.classList.contains("js"))).toBe(false);
    for (const name of ["Gestión colaborativa", "Arquitectura y tecnología", "Casos de uso", "Contacto", "Acceder"]) {
      await expect(page.getByRole("link", { name, exact: true }).first().isVisible()).resolves.toBe(true);
    }
    const hidden = await page.locator("[data-reveal]").evaluateAll(
      (elements) =>
        elements.filter((el) => {
          const style = getComputedStyle(el);
          return style.opacity !== "1" || style.visibility === "hidden" || style.display === "none";
        }).length,
    );
    expect(hidden).toBe(0);
    for (const heading of [
      "Banca",
      "Farmacéutica",
      "Despachos de abogados",
      "Automoción",
      "Tecnología",
      "Grupos internacionales",
    ]) {
      await expect(page.getByRole("heading", { name: heading, exact: true }).isVisible()).resolves.toBe(true);
    }
    expect(errors).toEqual([]);
    await close();
  });

  test("with JavaScript, elements below the fold are hidden until scrolled to, and shown after", async () => {
    const { page, errors, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${f.server.url}/`);
    await interactAndHydrate(page);
    await page.waitForFunction(() => document.documentElement.classList.contains("reveal-ready"));
    const banking = page.locator("#use-cases [data-reveal]").first();
    await expect(banking.evaluate((el) => getComputedStyle(el).opacity)).resolves.toBe("0");
    await banking.scrollIntoViewIfNeeded();
    await page.waitForFunction(() =>
      document.querySelector("#use-cases [data-reveal]")?.classList.contains("is-revealed"),
    );
    expect(errors).toEqual([]);
    await close();
  });

  test("under prefers-reduced-motion nothing is hidden", async () => {
    const { page, close } = await openPage(f.browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
      reducedMotion: "reduce",
    });
    await page.goto(`${f.server.url}/`);
    await page.waitForLoadState("networkidle");
    await interactAndHydrate(page);
    const banking = page.locator("#use-cases [data-reveal]").first();
    await expect(banking.evaluate((el) => getComputedStyle(el).opacity)).resolves.toBe("1");
    await close();
  });
});
