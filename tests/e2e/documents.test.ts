/**
 * Documents in Chromium against the built server, on the recorded BOE day 2018-12-06 and the
 * EUR-Lex feed ingested into its database before it starts: the owner (set up with TOTP) sees
 * the latest documents on the home, searches, opens a result, reads its text and provenance;
 * the audit trail holds `document.read` for it and the page names who opened it. The search
 * form works without JavaScript; the pages have no axe violations at 390 px in dark mode and
 * at 1280 px in light mode.
 */
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import axe from "axe-core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { launchBrowser, openPage } from "../support/browser.ts";
import { ingestRecorded } from "../support/documents-fixtures.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { totpFromUri } from "../support/totp.ts";

const password = "tortuga-verde-lunes-27";
let server: RunningServer;
let browser: Browser;
let lopdId = "";
let storage: Awaited<ReturnType<Awaited<ReturnType<Browser["newContext"]>>["storageState"]>>;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "docs-e2e-"));
  const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
  await migrate(database, defaultMigrationsDir);
  const ids = await ingestRecorded(database, ["2018-12-06"]);
  lopdId = ids.get("BOE-A-2018-16673") ?? "";
  await database.close();
  server = await startServer({ dataDir, env: { INGEST_SOURCES: "none", LOG_LEVEL: "warn" }, waitUntilHealthy: false });
  const deadline = Date.now() + 100_000;
  while ((await fetch(`${server.url}/healthz`).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${server.output.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function axeViolations(page: Page) {
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
    });
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.map(String)) }));
  });
}

describe("documents in the browser", () => {
  test("the pages need a session: anonymous visitors are sent to sign in, never cached", async () => {
    for (const pathname of ["/app/search?q=ley", `/app/documents/${lopdId}`, "/app/admin/sources"]) {
      const response = await fetch(`${server.url}${pathname}`, { redirect: "manual" });
      expect(response.status, pathname).toBe(302);
      expect(response.headers.get("location"), pathname).toBe(`/app/login?next=${encodeURIComponent(pathname)}`);
      expect(response.headers.get("cache-control"), pathname).toMatch(/no-store/);
    }
  });

  test("setup → home with the latest documents → search → open a result → text, provenance, audit, readers", async () => {
    const { page, errors, close } = await openPage(browser, {
      locale: "es-ES",
      viewport: { width: 1280, height: 900 },
    });
    const setupUrl = readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim();
    await page.goto(setupUrl);
    await page.getByLabel("Nombre de la organización").fill("Org Docs");
    await page.getByLabel("Tu nombre").fill("Ana");
    await page.getByLabel("Tu correo electrónico").fill("ana@example.com");
    await page.getByLabel("Contraseña (mínimo 12 caracteres)").fill(password);
    await page.getByRole("button", { name: "Crear organización" }).click();
    await page.waitForURL(/\/app\/mfa$/);
    const uri = (await page.getByTestId("otpauth-uri").textContent())?.trim() ?? "";
    await page.getByLabel("Código de la aplicación").fill(totpFromUri(uri));
    await page.getByRole("button", { name: "Activar" }).click();
    await page.waitForURL(/\/app$/);

    // The home lists the newest documents (the EU act of 2022-09-14 first).
    const latest = page.getByTestId("new-documents").getByRole("link");
    await expect.poll(() => latest.count(), { timeout: 20_000 }).toBe(10);
    expect(await latest.first().textContent()).toContain("Digital Markets Act");

    // Search from the nav.
    await page
      .getByRole("navigation", { name: "Navegación de la plataforma" })
      .getByRole("link", { name: "Buscar" })
      .click();
    await page.waitForURL(/\/app\/search$/);
    await page.getByLabel("Buscar en el texto").fill("proteccion de datos personales");
    await page.getByLabel("Fuente").selectOption("boe");
    await page.getByRole("button", { name: "Buscar" }).first().click();
    await page.waitForURL(/[?&]q=proteccion/);
    const url = new URL(page.url());
    expect(url.searchParams.get("source")).toBe("boe");
    const result = page.getByTestId("results").getByRole("link", { name: /Ley Orgánica 3\/2018/ });
    await result.waitFor();
    // The match is highlighted in the snippet.
    expect(await page.getByTestId("results").locator("mark").count()).toBeGreaterThan(0);
    // A law among the results can be followed: its button posts a form of its own to /app/laws,
    // not the filters' form it sits in (a nested form broke the page's hydration).
    const follow = page
      .getByTestId("result")
      .filter({ has: page.getByRole("link", { name: /Ley Orgánica 3\/2018/ }) })
      .getByRole("button", { name: "Seguir esta ley" });
    expect(await follow.getAttribute("aria-describedby")).toMatch(/^results-/);
    expect(
      await follow.evaluate((button) => {
        const form = (button as HTMLButtonElement).form;
        return [form?.getAttribute("action"), form?.getAttribute("method"), form?.closest("search") === null];
      }),
    ).toEqual(["/app/laws", "post", true]);

    await result.click();
    await page.waitForURL(new RegExp(`/app/documents/${lopdId}$`));
    await page.getByRole("heading", { level: 1, name: /Ley Orgánica 3\/2018, de 5 de diciembre/ }).waitFor();
    // The text, rendered from the paragraphs, and the rest of the page.
    const text = page.locator(".doc-text p");
    expect(await text.count()).toBeGreaterThan(0);
    expect(await text.first().textContent()).toContain("Protección de Datos Personales");
    expect(await page.getByRole("link", { name: "Ver en la fuente oficial" }).getAttribute("href")).toContain(
      "BOE-A-2018-16673",
    );
    expect(await page.getByTestId("provenance-row").count()).toBeGreaterThan(0);
    expect(await page.getByTestId("reuse-notice").textContent()).toContain(
      "Agencia Estatal Boletín Oficial del Estado",
    );
    // The owner sees who opened it: herself.
    expect(await page.getByTestId("readers").textContent()).toContain("ana@example.com");

    // A note anchored to the first paragraph, in Markdown.
    await page.getByLabel("Texto de la nota").first().fill("Revisar el **artículo 1** con el equipo");
    await page.getByLabel("Quién la ve").first().selectOption("organization");
    await page.getByLabel("Párrafo del texto (opcional)").first().fill("1");
    await page.getByRole("button", { name: "Guardar la nota" }).click();
    await page.getByText("Nota guardada.").waitFor();
    const note = page.getByTestId("note").first();
    expect(await note.locator("strong").textContent()).toBe("artículo 1");
    expect(await note.getByRole("link", { name: "Sobre el párrafo 1" }).getAttribute("href")).toBe("#p-0");

    // The audit trail holds the read, for this document, by Ana.
    const exported = await page.request.get(`${server.url}/app/admin/audit/export?format=json&action=document.read`);
    expect(exported.status()).toBe(200);
    type Event = { action: string; actor: { email: string }; object: { id: string } };
    const body = (await exported.json()) as Event[] | { items: Event[] };
    const events = Array.isArray(body) ? body : body.items;
    expect(events.map((e) => [e.action, e.actor.email, e.object.id])).toContainEqual([
      "document.read",
      "ana@example.com",
      lopdId,
    ]);
    storage = await page.context().storageState();
    expect(errors).toEqual([]);
    await close();
  }, 180_000);

  test("the search form and its pages work without JavaScript", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: storage, locale: "es-ES" });
    const page = await context.newPage();
    await page.goto(`${server.url}/app/search`);
    await page.getByLabel("Buscar en el texto").fill("regulation");
    await page.getByLabel("Ámbito").selectOption("EU");
    await page.getByRole("button", { name: "Buscar" }).first().click();
    await page.waitForURL(/jurisdiction=EU/);
    const links = page.getByTestId("results").getByRole("link");
    expect(await links.count()).toBe(6);
    expect(await page.getByTestId("result-count").textContent()).toBe("6 resultados");
    await links.first().click();
    await page.waitForURL(/\/app\/documents\//);
    expect(await page.locator(".doc-text p").count()).toBeGreaterThan(20);
    // A note without JavaScript: a plain POST, the page answers with the note and its notice.
    await page.getByLabel("Texto de la nota").first().fill("Nota sin JavaScript");
    await page.getByRole("button", { name: "Guardar la nota" }).click();
    await page.getByText("Nota guardada.").waitFor();
    expect(await page.getByTestId("note").first().textContent()).toContain("Nota sin JavaScript");
    await context.close();
  }, 60_000);

  test.each([
    { width: 390, colorScheme: "dark" as const },
    { width: 1280, colorScheme: "light" as const },
  ])(
    "search, document, home and sources pages: no axe violations at $width px in $colorScheme mode",
    async ({ width, colorScheme }) => {
      const context = await browser.newContext({
        storageState: storage,
        locale: "es-ES",
        viewport: { width, height: 844 },
        colorScheme,
      });
      const page = await context.newPage();
      for (const target of [`/app/search?q=datos`, `/app/documents/${lopdId}`, "/app", "/app/admin/sources"]) {
        await page.goto(`${server.url}${target}`);
        await page.waitForLoadState("networkidle");
        expect(await page.locator("html").getAttribute("data-bs-theme")).toBe(colorScheme);
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        const violations = await axeViolations(page);
        expect(violations, `${target}: ${JSON.stringify(violations)}`).toEqual([]);
        // SCREENSHOTS=1: look at what was built (screenshots/app/docs-*.png).
        if (process.env.SCREENSHOTS) {
          const dir = path.resolve(import.meta.dirname, "../../screenshots/app");
          mkdirSync(dir, { recursive: true });
          const name = target.replace(/^\/app\/?/, "").split(/[/?]/)[0] || "home";
          await page.screenshot({ path: path.join(dir, `docs-${name}-${width}-${colorScheme}.png`) });
        }
      }
      await context.close();
    },
    90_000,
  );
});
