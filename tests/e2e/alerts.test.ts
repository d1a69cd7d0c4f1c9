/**
 * Alerts in Chromium against the built app (in this process, PGlite): sign-up and TOTP enrolment in
 * the browser, a profile made with the form, then a document matched by the services shows up on the
 * open page without a reload (unread badge, list, live-region announcement) through /app/events;
 * the notification centre opens from the keyboard; without JavaScript, /app/alerts marks all read.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import axe from "axe-core";
import { sql } from "drizzle-orm";
import type { Browser, Cookie, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { insertStoredDocument } from "../support/alerts-fixtures.ts";
import { launchBrowser, openPage } from "../support/browser.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { totpFromUri } from "../support/totp.ts";

const password = "tortuga-verde-lunes-27";
let cookies: Cookie[] = [];

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

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
      nodes: v.nodes.map((n) => ({ target: n.target.map(String) })),
    }));
  })) as AxeViolation[];
}
let server: Awaited<ReturnType<typeof startInProcessServer>>;
let browser: Browser;

beforeAll(async () => {
  server = await startInProcessServer();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("alerts in the browser", () => {
  test("a matched document appears on the open page without a reload; no-JS mark all read", async () => {
    const { page, errors, close } = await openPage(browser, {
      locale: "es-ES",
      viewport: { width: 390, height: 844 },
      colorScheme: "dark",
    });
    const setupUrl = readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim();
    await page.goto(setupUrl);
    await page.getByLabel("Nombre de la organización").fill("Org Alertas");
    await page.getByLabel("Tu nombre").fill("Ana");
    await page.getByLabel("Tu correo electrónico").fill("ana@example.com");
    await page.getByLabel("Contraseña (mínimo 12 caracteres)").fill(password);
    await page.getByRole("button", { name: "Crear organización" }).click();
    await page.waitForURL(/\/app\/mfa$/);
    const uri = (await page.getByTestId("otpauth-uri").textContent())?.trim() ?? "";
    await page.getByLabel("Código de la aplicación").fill(totpFromUri(uri));
    await page.getByRole("button", { name: "Activar" }).click();
    await page.waitForURL(/\/app$/);

    // A profile through the form: keyword "capitales", in-app only.
    await page.goto(`${server.url}/app/profiles/new`);
    await page.getByLabel("Nombre del perfil").fill("Blanqueo");
    await page.getByLabel("Palabras clave (una por línea)").fill("capitales");
    await page.getByRole("button", { name: "Guardar perfil" }).click();
    await page.getByText("Perfil guardado.").waitFor();

    await page.goto(`${server.url}/app`);
    const badge = page.getByTestId("unread-count");
    await expect.poll(() => badge.textContent()).toBe("0");
    // Wait until the page's EventSource is connected (an open stream on the server).
    await page.waitForFunction(() => document.readyState === "complete");
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const documentId = await insertStoredDocument(server.app.database, {
      title: "Ley de prevención del blanqueo de capitales",
    });
    await server.app.services.alerts.matchNow(documentId);

    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe("1");
    // The announcement says why, in the Alerts page's words (the profile and the term that matched).
    await expect
      .poll(() => page.getByTestId("alert-announcer").textContent())
      .toBe(
        "Nueva alerta: Ley de prevención del blanqueo de capitales. Coincide con tu perfil «Blanqueo»: términos: «capitales».",
      );
    // Same document: no reload happened.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);

    // The centre opens from the keyboard and lists the alert, linked to its document.
    await page.getByTestId("alerts-button").focus();
    await page.keyboard.press("Enter");
    const link = page.getByRole("link", { name: "Ley de prevención del blanqueo de capitales" });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`/app/documents/${documentId}`);
    // The alert that arrived live says why in the list, with a label for screen readers.
    const why = page.getByTestId("recent-alert-why").first();
    expect(await why.textContent()).toBe("Por qué: Coincide con tu perfil «Blanqueo»: términos: «capitales»");
    expect(await why.locator(".visually-hidden").textContent()).toBe("Por qué: ");
    if (process.env.ALERTS_SCREENSHOTS) {
      mkdirSync(process.env.ALERTS_SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(process.env.ALERTS_SCREENSHOTS, "centre-live-390-dark.png") });
    }
    // At 390 px the panel stays inside the viewport.
    const box = await page.locator(".app-alerts-panel").boundingBox();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);

    // Mark all read from the centre (with JavaScript: no navigation, the badge follows).
    await page.getByRole("button", { name: "Marcar todas como leídas" }).click();
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe("0");
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);

    // Without JavaScript: a second alert, listed on /app/alerts, marked read with the plain form.
    cookies = await page.context().cookies();
    const second = await insertStoredDocument(server.app.database, { title: "Orden sobre capitales mínimos" });
    await server.app.services.alerts.matchNow(second);
    await expect
      .poll(async () => {
        const [row] = await server.app.database.rows<{ n: number }>(
          sql`select count(*)::int as n from alerts where read_at is null`,
        );
        return row?.n;
      })
      .toBe(1);
    const noJs = await openPage(browser, { locale: "es-ES", javaScriptEnabled: false });
    await noJs.page.context().addCookies(cookies);
    await noJs.page.goto(`${server.url}/app/alerts`);
    expect(await noJs.page.getByTestId("unread-count").textContent()).toBe("1");
    await noJs.page.getByRole("main").getByRole("button", { name: "Marcar todas como leídas" }).click();
    await noJs.page.getByText("Alertas marcadas como leídas: 1.").waitFor();
    expect(await noJs.page.getByTestId("unread-count").textContent()).toBe("0");
    await noJs.close();

    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  // /app/alerts says why each alert came (decision 0148), in the member's language, at 390 and 1440 px.
  test.each([390, 1440])(
    "/app/alerts at %i px says why, in Spanish and English",
    async (width) => {
      expect(cookies.length).toBeGreaterThan(0);
      const { page, errors, close } = await openPage(browser, { locale: "es-ES", viewport: { width, height: 900 } });
      await page.context().addCookies(cookies);
      const expected = {
        es: "Coincide con tu perfil «Blanqueo»: términos: «capitales»",
        en: "Matches your profile “Blanqueo”: terms: “capitales”",
      };
      for (const language of ["es", "en"] as const) {
        await server.app.database.rows(sql`update auth_user set locale = ${language} where email = 'ana@example.com'`);
        await page.goto(`${server.url}/app/alerts`);
        const why = await page.getByTestId("alert-why").allTextContents();
        expect(why.length).toBeGreaterThanOrEqual(2);
        expect(why.every((text) => text === expected[language])).toBe(true);
        // The notification centre on the same page (loaded with the page) says why in the same words.
        const centre = await page.getByTestId("recent-alert-why").allTextContents();
        expect(centre[0]).toBe(`${language === "es" ? "Por qué" : "Why"}: ${expected[language]}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        const dir = process.env.ALERTS_SCREENSHOTS;
        if (dir) {
          mkdirSync(dir, { recursive: true });
          await page.screenshot({ path: path.join(dir, `alerts-${width}-${language}.png`), fullPage: true });
        }
      }
      await server.app.database.rows(sql`update auth_user set locale = 'es' where email = 'ana@example.com'`);
      expect(errors).toEqual([]);
      await close();
    },
    60_000,
  );

  const pages = ["/app", "/app/alerts", "/app/profiles", "/app/profiles/new", "/app/admin/deliveries"].flatMap((path) =>
    (["light", "dark"] as const).map((colorScheme) => ({ path, colorScheme })),
  );
  test.each(pages)(
    "$path in $colorScheme mode has no axe violations (notification centre open)",
    async ({ path, colorScheme }) => {
      expect(cookies.length).toBeGreaterThan(0);
      const { page, errors, close } = await openPage(browser, {
        locale: "es-ES",
        viewport: { width: 1280, height: 900 },
        colorScheme,
      });
      await page.context().addCookies(cookies);
      await page.goto(`${server.url}${path}`);
      expect(new URL(page.url()).pathname).toBe(path);
      await page.getByTestId("alerts-button").click();
      if (path === "/app/profiles/new") {
        await page.getByLabel("Nombre del perfil").fill("Prueba");
        await page.getByRole("button", { name: "Probar con los últimos 30 días" }).click();
        await page.getByTestId("profile-preview").waitFor();
      }
      const violations = await axeViolations(page);
      expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
      expect(errors).toEqual([]);
      await close();
    },
  );
});
