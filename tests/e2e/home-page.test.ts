import { describe, expect, test } from "vitest";
import { openPage } from "../support/browser.ts";
import { setupServerAndBrowser } from "../support/home-fixtures.ts";

const f = setupServerAndBrowser();

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

  test("asks for its JavaScript only after the first paint, then hydrates (es and en)", async () => {
    for (const path of ["/", "/en"]) {
      // Served: no module preload in the page, the module script inert, a loader after it.
      const html = await (await fetch(`${f.server.url}${path}`)).text();
      expect(html).not.toMatch(/<link rel="modulepreload"/);
      expect(html).toMatch(/<script nonce="[^"]*" type="text\/x-deferred-module" id="rr-deferred-module"/);
      // In the browser: the preloads are added once the page has painted, and React Router takes over.
      const { page, errors, close } = await openPage(f.browser, { locale: "es-ES", colorScheme: "light" });
      await page.goto(`${f.server.url}${path}`);
      await expect.poll(() => page.locator('link[rel="modulepreload"]').count()).toBeGreaterThan(3);
      await expect.poll(() => page.evaluate(() => "__reactRouterDataRouter" in window), { timeout: 15_000 }).toBe(true);
      expect(errors).toEqual([]);
      await close();
    }
  });

  test("the code sample is highlighted on the server, with both themes and no highlighter in the browser", async () => {
    const response = await fetch(`${f.server.url}/`);
    const html = await response.text();
    expect(html).toContain('class="shiki shiki-themes snazzy-light min-dark"');
    expect(html).toContain("--shiki-dark:");
    expect(html).toContain("curl");
    // The modules are listed in data-modulepreload once the page hydrates after its first paint.
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
    await page.setViewportSize({ width: 700, height: 800 });
    await page.waitForFunction(() => document.body.classList.contains("bp-sm"));
    expect(bpClasses((await page.getAttribute("body", "class")) ?? "")).toEqual(
      want("sm", ["xs-up", "sm-up", "md-down", "lg-down", "xl-down", "xxl-down"]),
    );
    expect(errors).toEqual([]);
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
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true");
    await toggle.click();
    expect(await page.getAttribute("html", "data-bs-theme")).toBe("light");
    await expect(toggle.getAttribute("aria-pressed")).resolves.toBe("false");
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(255, 255, 255)");
    await page.reload();
    expect(await page.getAttribute("html", "data-bs-theme")).toBe("light");
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
    const banking = page.locator("#use-cases [data-reveal]").first();
    await expect(banking.evaluate((el) => getComputedStyle(el).opacity)).resolves.toBe("1");
    await close();
  });
});
