/**
 * Issue 39, in Chromium against the built app (in this process, PGlite) and the source replay moved
 * in time: a member follows Ley 39/2015 as it stood on 2018-11-01, records an obligation on article
 * 28 from the law page with the keyboard (in Spanish) and a second one in English; the replay moves
 * to 2018-12-06, when BOE-A-2018-16673 re-worded article 28; the law poll sends both to review; the
 * register flags them, the review page shows the word-level comparison, and each review is decided
 * (es, then en), the second one from the notification's link. axe-clean at 1440 and 390 px, light
 * and dark.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseDirectory } from "../../app/.server/alerts/directory.ts";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { registerLaw } from "../../app/.server/law-texts/store.ts";
import { configureLawAlerts, lawAlertsFor } from "../../app/.server/laws/service.ts";
import { pollAndAlert } from "../../app/.server/sources/consolidated/alerting.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { axeViolations } from "../support/axe.ts";
import { launchBrowser, openPage, switchColorMode } from "../support/browser.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { totpFromUri } from "../support/totp.ts";

const LAW = "BOE-A-2015-10565";
const password = "tortuga-verde-lunes-27";

/** SCREENSHOTS=1: look at what was built (screenshots/app/obligation-*.png). */
async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  const dir = path.resolve(import.meta.dirname, "../../screenshots/app");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `obligation-${name}.png`), fullPage: true });
}

/** axe at 1440 px light and 390 px dark (no sideways scroll), with screenshots of both. */
async function checkBothWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, `${name}-1440-light`);
  await page.setViewportSize({ width: 390, height: 844 });
  await switchColorMode(page, "dark");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, `${name}-390-dark`);
  await switchColorMode(page, "light");
  await page.setViewportSize({ width: 1440, height: 900 });
}

let replay: ReplayServer;
let server: Awaited<ReturnType<typeof startInProcessServer>>;
let browser: Browser;

beforeAll(async () => {
  replay = await startReplayServer();
  server = await startInProcessServer({ BOE_API_URL: replay.url, MAIL_FROM: "alertas@vigia.example" });
  // The poll runs in this process (as the source job would in the server's): it audits the reviews
  // it opens, so it signs the chain's head with the server's secret (in-process-server's AUTH_SECRET).
  setAuditSecret("auth-secret-auth-secret-auth-secret-0123");
  browser = await launchBrowser();
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await replay?.close();
});

async function pollLaws(day: string) {
  configureLawAlerts({ siteUrl: server.url, mailFrom: "alertas@vigia.example" });
  return pollAndAlert(
    {
      database: server.app.database,
      http: createSourceHttp({ userAgent: "test", source: "boe", perSecond: 10_000, retries: 1, backoffMs: 10 }),
      baseUrl: replay.url,
      log: { info() {}, warn() {} },
      now: () => new Date(`${day}T12:00:00Z`),
      lawAlerts: lawAlertsFor(server.app.database, databaseDirectory(server.app.database)),
    },
    { only: [LAW] },
  );
}

describe("an obligation anchored to a law's article, in the browser", () => {
  test("recorded from the law page, sent to review by the new wording, decided in Spanish and English", async () => {
    replay.setLawDate("2018-11-01");
    replay.setLawChangeList(false);
    await registerLaw(server.app.database, LAW, "boe");
    expect((await pollLaws("2018-11-01")).laws.map((l) => l.status)).toEqual(["first"]);

    const { page, errors, close } = await openPage(browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    const setupUrl = readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim();
    await page.goto(setupUrl);
    await page.getByLabel("Nombre de la organización").fill("Org Obligaciones");
    await page.getByLabel("Tu nombre").fill("Ana");
    await page.getByLabel("Tu correo electrónico").fill("ana@example.com");
    await page.getByLabel("Contraseña (mínimo 12 caracteres)").fill(password);
    await page.getByRole("button", { name: "Crear organización" }).click();
    await page.waitForURL(/\/app\/mfa$/);
    const uri = (await page.getByTestId("otpauth-uri").textContent())?.trim() ?? "";
    await page.getByLabel("Código de la aplicación").fill(totpFromUri(uri));
    await page.getByRole("button", { name: "Activar" }).click();
    await page.waitForURL(/\/app$/);

    // Follow the law, then open article 28.
    await page.goto(`${server.url}/app/laws`);
    await page.getByLabel("Identificador BOE, ELI o CELEX").fill(LAW);
    await page.getByRole("button", { name: "Seguir", exact: true }).click();
    await page.getByText("Listo: sigues toda la ley. Te avisaremos de cada cambio.").waitFor();
    await page.goto(`${server.url}/app/laws/${LAW}?block=a28`);
    const art28 = page.locator("#b-a28");
    // The article's action, from the keyboard: its accessible name says which article.
    await checkBothWidths(page, "law-page-es");
    const record = art28.getByRole("link", { name: /^Registrar una obligación en Artículo\s28/ });
    await record.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/obligations\/new\?block=a28&version=BOE-A-2015-10565/);
    await page.getByRole("heading", { level: 1, name: "Nueva obligación en un artículo" }).waitFor();
    expect(await page.locator(".law-wording").textContent()).toContain("Artículo 28. Documentos aportados");
    await checkBothWidths(page, "new-es");
    // An empty title: the error in Spanish, nothing recorded.
    await page.getByRole("button", { name: "Guardar la obligación" }).click();
    await page.getByText("Escribe un título de 3 a 200 caracteres.").waitFor();
    await page.getByLabel("Título").fill("No pedir documentos que ya tiene la Administración");
    await page.getByLabel("Responsable").selectOption({ label: "Ana" });
    await page.getByLabel("Título").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/app\/obligations\?law=/);
    await page.getByText(/Obligación registrada \(Artículo\s28\)\./).waitFor();
    const register = page.getByTestId("obligations-register");
    await register.getByRole("link", { name: /Artículo\s28 · BOE-A-2015-10565/ }).waitFor();
    await checkBothWidths(page, "register-es");

    // The same, in English (the platform's language switch).
    await page.getByRole("button", { name: "English" }).click();
    await page.goto(`${server.url}/app/laws/${LAW}/obligations/new?block=a28&version=${LAW}`);
    await page.getByRole("heading", { level: 1, name: "New obligation on an article" }).waitFor();
    await checkBothWidths(page, "new-en");
    await page.getByLabel("Title").fill("Keep the list of documents asked for");
    await page.getByRole("button", { name: "Save the obligation" }).click();
    await page.getByText(/Obligation recorded on Article\s28\.|Obligation recorded on Artículo\s28\./).waitFor();

    // The replay moves to 2018-12-06: article 28's new wording; the poll sends both to review.
    replay.setLawDate("2018-12-06");
    const moved = await pollLaws("2018-12-06");
    expect(moved.laws.map((l) => [l.status, l.writes.map((w) => w.blockId)])).toEqual([["changed", ["a28"]]]);
    await page.goto(`${server.url}/app/obligations?review=1`);
    expect(await page.getByTestId("obligations-register").locator("tbody tr").count()).toBe(2);
    await shoot(page, "register-review-en-1440-light");
    // The link names its obligation (hidden text after "Review").
    await page.getByRole("link", { name: /^Review\s*:\s*Keep the list of documents asked for$/ }).click();
    await page.waitForURL(/\/review$/);
    await page.getByTestId("review-needed").waitFor();
    const inline = page.getByTestId("diff-inline");
    expect(await inline.locator("ins").count()).toBeGreaterThan(0);
    expect(await inline.locator("del").count()).toBeGreaterThan(0);
    await checkBothWidths(page, "review-en");
    // No decision chosen: the error, in English.
    await page.getByRole("button", { name: "Save the decision" }).click();
    await page.getByText("Choose a decision: still applies, changed or no longer applies.").first().waitFor();
    await page.getByRole("radio", { name: "Still applies" }).check();
    await page.getByLabel("Note for the record (optional)").fill("Checked against LO 3/2018");
    await page.getByRole("button", { name: "Save the decision" }).click();
    await page.getByText("Decision saved and obligation anchored to the new version.").waitFor();
    expect(await page.getByTestId("review-history").textContent()).toContain("Still applies by Ana");
    expect(await page.getByTestId("review-needed").count()).toBe(0);

    // Back to Spanish: the other one, from the notification's link (the alert leads to the review).
    await page.getByRole("button", { name: "Español" }).click();
    await page.goto(`${server.url}/app/obligations?review=1`);
    expect(await page.getByTestId("obligations-register").locator("tbody tr").count()).toBe(1);
    const rows =
      // The notification centre's row for Ana: its document id is the review's.
      (
        (await server.app.database.db.execute(
          sql`select document_id::text as id from alerts where title like '%No pedir documentos%'`,
        )) as unknown as { rows: { id: string }[] }
      ).rows;
    expect(rows).toHaveLength(1);
    await page.goto(`${server.url}/app/documents/${rows[0]!.id}`);
    await page.waitForURL(/\/app\/obligations\/[0-9a-f-]+\/review$/);
    await page.getByRole("heading", { level: 1, name: /Revisión de la obligación: No pedir documentos/ }).waitFor();
    await checkBothWidths(page, "review-es");
    // With the keyboard: the decision "Ha cambiado", the new text, saved with Enter on the button.
    await page.getByRole("radio", { name: "Ha cambiado" }).focus();
    await page.keyboard.press("Space");
    await page
      .getByLabel("Nuevo texto de la obligación (si ha cambiado)")
      .fill("No pedir documentos ya aportados ni elaborados por la Administración.");
    await page.getByRole("button", { name: "Guardar la decisión" }).focus();
    await page.keyboard.press("Enter");
    await page.getByText("Decisión guardada y obligación anclada a la nueva versión.").waitFor();
    expect(await page.getByTestId("review-history").textContent()).toContain("Ha cambiado por Ana");
    await page.goto(`${server.url}/app/obligations?review=1`);
    await page.getByText("No hay obligaciones con estos filtros.").waitFor();
    // The evidence pack of today: both obligations with their reviews (who, which versions, the decision).
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(`${server.url}/app/evidence?from=${today}&to=${today}`);
    const reviews = page.getByTestId("evidence-law-obligations");
    await reviews.waitFor();
    const text = (await reviews.textContent()) ?? "";
    expect(text).toContain("Ha cambiado");
    expect(text).toContain("Sigue aplicando");
    expect(text).toContain("BOE-A-2018-16673");
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, "evidence-es-1440-light");
    // The two refused forms above (an empty title, no decision) answer 422 on purpose; nothing else.
    expect(errors.filter((e) => !e.includes("status of 422"))).toEqual([]);
    expect(errors.filter((e) => e.includes("status of 422"))).toHaveLength(2);
    await close();
  }, 420_000);
});
