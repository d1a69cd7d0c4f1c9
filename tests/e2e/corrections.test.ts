/**
 * Corrections in Chromium against the built app (in this process, PGlite): a member of one
 * organisation adds a missing area to a document with the page's form; a profile of theirs for
 * that area gets the alert once (a second correction sends nothing more); a member of another
 * organisation sees the original label. Without JavaScript the form answers field errors in
 * Spanish. Screenshots of the page with the form at 390 and 1440 px, light and dark, go to
 * CORRECTIONS_SCREENSHOTS when it is set.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { alertProfiles } from "../../app/.server/db/schema.ts";
import { insertStoredDocument } from "../support/alerts-fixtures.ts";
import { launchBrowser, openPage } from "../support/browser.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { acceptOwnerInvitation, type SignedIn, setupOwner } from "../support/platform-members.ts";

let server: Awaited<ReturnType<typeof startInProcessServer>>;
let browser: Browser;
let ana: SignedIn;
let bea: SignedIn;
let documentId = "";

/** The session cookie header as browser cookies for the test server. */
function cookiesOf(signedIn: SignedIn) {
  return signedIn.cookie
    .split(/;\s*/)
    .filter(Boolean)
    .map((pair) => {
      const index = pair.indexOf("=");
      return { name: pair.slice(0, index), value: pair.slice(index + 1), url: server.url };
    });
}

beforeAll(async () => {
  server = await startInProcessServer();
  browser = await launchBrowser();
  const auth = server.app.services.auth;
  ana = await setupOwner(auth, server.dataDir, { email: "ana@a.example", name: "Ana Ruiz", organizationName: "Org A" });
  const other = await auth.createOrganizationWithOwnerInvitation({
    name: "Org B",
    adminEmail: "bea@b.example",
    locale: "es",
  });
  bea = await acceptOwnerInvitation(auth, other.url, { email: "bea@b.example", name: "Bea Soto" });
  documentId = await insertStoredDocument(server.app.database, {
    title: "Orden sobre el seguro de crédito a la exportación por cuenta del Estado",
    text: "Se regula la cobertura del seguro de crédito a la exportación.",
    areas: ["banking"],
    relevance: "medium",
  });
  // A profile of each organisation for insurance: neither matches a banking document.
  await server.app.database.db.insert(alertProfiles).values([
    {
      id: randomUUID(),
      organizationId: ana.member.organizationId,
      userId: ana.member.userId,
      name: "Seguros",
      areas: ["insurance"],
    },
    {
      id: randomUUID(),
      organizationId: bea.member.organizationId,
      userId: bea.member.userId,
      name: "Seguros",
      areas: ["insurance"],
    },
  ]);
  await server.app.services.alerts.matchNow(documentId);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const alertsOf = async (userId: string) =>
  (
    await server.app.database.rows<{ n: number }>(
      sql`select count(*)::int as n from alerts where user_id = ${userId} and document_id = ${documentId}::uuid`,
    )
  )[0]?.n ?? 0;

describe("corrections in the browser", () => {
  test("a member adds a missing area: their profile gets the alert once, another organisation sees the original", async () => {
    expect(await alertsOf(ana.member.userId)).toBe(0);
    const { page, errors, close } = await openPage(browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    await page.context().addCookies(cookiesOf(ana));
    await page.goto(`${server.url}/app/documents/${documentId}`);
    const areas = page.getByTestId("areas");
    expect(await areas.textContent()).toContain("Banca y entidades de crédito");
    expect(await areas.textContent()).not.toContain("Seguros y pensiones");

    const form = page.getByTestId("correction-form");
    await form.getByLabel("Área", { exact: true }).selectOption("insurance");
    await form.getByLabel("Falta: el documento es de esta área").check();
    await form.getByLabel("Motivo").fill("Trata del seguro de crédito a la exportación");
    await form.getByRole("button", { name: "Guardar la corrección" }).click();
    await page.getByText("Corrección guardada.", { exact: false }).waitFor();
    await expect.poll(() => areas.textContent()).toContain("Seguros y pensiones");
    expect(await page.getByTestId("corrected-by").textContent()).toMatch(
      /^Añadida por Ana Ruiz el .+: Trata del seguro de crédito a la exportación$/,
    );
    await expect.poll(() => alertsOf(ana.member.userId), { timeout: 10_000 }).toBe(1);

    // A second correction matches the document again: nothing is sent twice.
    await form.getByLabel("Área", { exact: true }).selectOption("banking");
    await form.getByLabel("Sobra: el documento no es de esta área").check();
    await form.getByLabel("Motivo").fill("No regula entidades de crédito");
    await form.getByRole("button", { name: "Guardar la corrección" }).click();
    await page.getByTestId("removed-areas").waitFor();
    expect(await page.getByTestId("removed-areas").textContent()).toContain("Quitada por Ana Ruiz");
    await server.app.services.alerts.matchNow(documentId);
    expect(await alertsOf(ana.member.userId)).toBe(1);
    expect(errors).toEqual([]);
    await close();

    // The other organisation: the original label, no correction, no alert.
    const other = await openPage(browser, { locale: "es-ES", viewport: { width: 1440, height: 900 } });
    await other.page.context().addCookies(cookiesOf(bea));
    await other.page.goto(`${server.url}/app/documents/${documentId}`);
    const theirAreas = await other.page.getByTestId("areas").textContent();
    expect(theirAreas).toContain("Banca y entidades de crédito");
    expect(theirAreas).not.toContain("Seguros y pensiones");
    expect(await other.page.getByTestId("corrected-by").count()).toBe(0);
    expect(await alertsOf(bea.member.userId)).toBe(0);
    expect(other.errors).toEqual([]);
    await other.close();
  }, 120_000);

  test("without JavaScript the form answers field errors in the member's language", async () => {
    const { page, close } = await openPage(browser, { locale: "es-ES", javaScriptEnabled: false });
    await page.context().addCookies(cookiesOf(ana));
    await page.goto(`${server.url}/app/documents/${documentId}`);
    const form = page.getByTestId("correction-form");
    await form.getByLabel("Área", { exact: true }).selectOption("tax");
    await form.getByRole("button", { name: "Guardar la corrección" }).click();
    await page.getByText("Revisa los campos marcados.").waitFor();
    expect(await page.locator("#correction-reason-error").textContent()).toBe(
      "Explica el motivo en 3 a 500 caracteres.",
    );
    expect(await page.locator("#correction-action-error").textContent()).toBe("Elige si el área sobra o falta.");
    await close();
  }, 60_000);

  const shots = [390, 1440].flatMap((width) =>
    (["light", "dark"] as const).map((colorScheme) => ({ width, colorScheme })),
  );
  test.each(shots)(
    "the page with the form at $width px, $colorScheme",
    async ({ width, colorScheme }) => {
      const { page, errors, close } = await openPage(browser, {
        locale: "es-ES",
        viewport: { width, height: 900 },
        colorScheme,
      });
      await page.context().addCookies(cookiesOf(ana));
      await page.goto(`${server.url}/app/documents/${documentId}`);
      const form = page.getByTestId("correction-form");
      await form.waitFor();
      // Nothing spills out of the viewport.
      const box = await form.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      const dir = process.env.CORRECTIONS_SCREENSHOTS;
      if (dir) {
        mkdirSync(dir, { recursive: true });
        await page.screenshot({
          path: path.join(dir, `document-corrections-${width}-${colorScheme}.png`),
          fullPage: true,
        });
      }
      expect(errors).toEqual([]);
      await close();
    },
    60_000,
  );
});
