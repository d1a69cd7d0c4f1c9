/**
 * The Sources page while the sample loads, in Chromium (issue 39): an admin of a fresh organisation
 * presses "load the sample data"; the page then shows, without a reload, the sample's documents,
 * laws and the organisation's alerts so far, and says when it is loaded; no axe violations at 390 px
 * (dark) and 1440 px (light); screenshots in the temporary folder sample-progress-shots. A smaller sample (one older BOE day and the last, replayed as today)
 * keeps it short: FIXTURES_DIR names a copy of the fixtures whose sources list those days.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { axeViolations } from "../support/axe.ts";
import { launchBrowser, openPage, switchColorMode } from "../support/browser.ts";
import { type SampleRoot, sampleRootOf } from "../support/sample-root.ts";
import { projectRoot, type RunningServer, startServer } from "../support/server.ts";
import { totpFromUri } from "../support/totp.ts";

let server: RunningServer;
let browser: Browser;
let sample: SampleRoot;
let fixtures = "";
const password = "tortuga-verde-lunes-27";
const shots = path.join(tmpdir(), "sample-progress-shots");

beforeAll(async () => {
  sample = sampleRootOf(["20181206", "20261001"]);
  fixtures = mkdtempSync(path.join(tmpdir(), "sample-fixtures-"));
  for (const entry of ["reference", "classify"])
    symlinkSync(path.join(projectRoot, "fixtures", entry), path.join(fixtures, entry));
  symlinkSync(sample.root, path.join(fixtures, "sources"));
  server = await startServer({
    env: { INGEST_SOURCES: "none", LOG_LEVEL: "warn", FIXTURES_DIR: fixtures },
    waitUntilHealthy: false,
  });
  const deadline = Date.now() + 240_000;
  while ((await fetch(`${server.url}/healthz`).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${server.output.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  browser = await launchBrowser();
  mkdirSync(shots, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  sample?.remove();
  if (fixtures) rmSync(fixtures, { recursive: true, force: true });
}, 180_000);

/** The numbers in the counts line ("Hasta ahora: 120 documentos, 3 leyes consolidadas, 0 alertas…"). */
const numbers = (text: string | null) => [...(text ?? "").matchAll(/(\d+)/g)].map((m) => Number(m[1]));

describe("the sample's progress on the Sources page", () => {
  test("counts documents, laws and alerts as the load goes, without a reload", async () => {
    const { page, errors, close } = await openPage(browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    const setupUrl = readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim();
    await page.goto(setupUrl);
    await page.getByLabel("Nombre de la organización").fill("Org Muestra");
    await page.getByLabel("Tu nombre").fill("Ana");
    await page.getByLabel("Tu correo electrónico").fill("ana@example.com");
    await page.getByLabel("Contraseña (mínimo 12 caracteres)").fill(password);
    await page.getByRole("button", { name: "Crear organización" }).click();
    await page.waitForURL(/\/app\/mfa$/);
    const uri = (await page.getByTestId("otpauth-uri").textContent())?.trim() ?? "";
    await page.getByLabel("Código de la aplicación").fill(totpFromUri(uri));
    await page.getByRole("button", { name: "Activar" }).click();
    await page.waitForURL(/\/app$/);

    await page.goto(`${server.url}/app/admin/sources`);
    const section = page.getByTestId("sample");
    expect(await section.getAttribute("data-status")).toBe("none");
    await page.getByRole("button", { name: "Cargar los datos de muestra" }).click();
    await page.getByText("Ha empezado la carga de los datos de muestra.").waitFor();
    const counts = page.getByTestId("sample-counts");
    // While it loads the page asks again every few seconds: the documents grow with no reload.
    await counts.waitFor();
    const navigations: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    await expect
      .poll(async () => numbers(await counts.textContent())[0] ?? 0, { timeout: 240_000, interval: 1000 })
      .toBeGreaterThan(0);
    await expect.poll(() => section.getAttribute("data-status"), { timeout: 400_000, interval: 2000 }).toBe("loaded");
    await expect
      .poll(async () => numbers(await counts.textContent()), { timeout: 30_000, interval: 1000 })
      .toEqual([expect.any(Number), 11, expect.any(Number)]);
    expect(navigations).toEqual([]);
    // A reload then shows the organisation's alerts (the delivery worker writes them just after the match).
    await expect
      .poll(
        async () => {
          await page.reload();
          return numbers(await counts.textContent())[2] ?? 0;
        },
        { timeout: 60_000, interval: 2000 },
      )
      .toBeGreaterThan(1);
    expect(await section.getByRole("status").textContent()).toContain("Datos de muestra cargados");
    expect(await axeViolations(page, { bestPractice: false })).toEqual([]);
    await page.screenshot({ path: path.join(shots, "sources-1440-light.png"), fullPage: true });
    // At 390 px in dark mode too.
    await page.setViewportSize({ width: 390, height: 844 });
    await switchColorMode(page, "dark");
    expect(await axeViolations(page, { bestPractice: false })).toEqual([]);
    await page.screenshot({ path: path.join(shots, "sources-390-dark.png"), fullPage: true });
    expect(errors).toEqual([]);
    await close();
  }, 1_000_000);
});
