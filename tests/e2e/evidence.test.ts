/**
 * Issue 26 in Chromium against the built app (in this process, PGlite): the story set up through
 * the platform's tables and services (an alert to the Legal group, Bea's read, triage decisions,
 * two obligations, notes); the owner opens the evidence pack and finds recipients, reads,
 * decisions, obligations and notes in that order and the chain verification "valid"; the overview
 * draws its three charts with their data tables and filters without JavaScript; the calendar URL
 * is created on the admin page, serves ICS without a session, and answers 404 once revoked.
 * axe (WCAG 2.2 AA) finds nothing on the overview and the pack, light and dark. Screenshots at 390
 * and 1440 px, light and dark, go to EVIDENCE_SCREENSHOTS when it is set.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import axe from "axe-core";
import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { launchBrowser, openPage, switchColorMode } from "../support/browser.ts";
import { type EvidenceStory, setUpEvidenceStory } from "../support/evidence-fixtures.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { type SignedIn, setupOwner } from "../support/platform-members.ts";

let server: Awaited<ReturnType<typeof startInProcessServer>>;
let browser: Browser;
let ana: SignedIn;
let story: EvidenceStory;

function cookiesOf(signedIn: SignedIn) {
  return signedIn.cookie
    .split(/;\s*/)
    .filter(Boolean)
    .map((pair) => {
      const index = pair.indexOf("=");
      return { name: pair.slice(0, index), value: pair.slice(index + 1), url: server.url };
    });
}

async function axeViolations(page: Page): Promise<{ id: string; targets: string[] }[]> {
  await page.evaluate(axe.source);
  return (await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return result.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.map(String).join(" ")) }));
  })) as { id: string; targets: string[] }[];
}

beforeAll(async () => {
  server = await startInProcessServer();
  browser = await launchBrowser();
  ana = await setupOwner(server.app.services.auth, server.dataDir, {
    email: "ana@a.example",
    name: "Ana Ruiz",
    organizationName: "Org A",
  });
  // The story's events are recorded by this process's copy of the audit module: it signs the chain's
  // head with the server's secret, as the built server's copy does.
  setAuditSecret(server.config.authSecret);
  story = await setUpEvidenceStory(server.app.database, new Date(), ana.member);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("overview, evidence pack and calendar in the browser", () => {
  test("the evidence pack lists all of it in order and its chain verification says valid", async () => {
    const { page, errors, close } = await openPage(browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    await page.context().addCookies(cookiesOf(ana));
    // From the document's page, as an admin reading it would (issue 39).
    await page.goto(`${server.url}/app/documents/${story.boeDocumentId}`);
    await page.getByTestId("document-evidence").getByRole("link", { name: "Ver el expediente" }).click();
    await page.waitForURL(/\/app\/evidence\?document=/);
    await page.getByTestId("evidence-document").waitFor();
    // The form, by its labels, as a person would fill it: the BOE id is enough.
    await page.goto(`${server.url}/app/evidence`);
    await page.getByLabel("Identificador del documento").fill("BOE-A-2026-1001");
    await page.getByRole("button", { name: "Ver el expediente" }).click();
    const pack = page.getByTestId("evidence-document");
    await pack.waitFor();
    expect(await pack.locator("h3").allTextContents()).toEqual([
      "Alertas: destinatarios y envío",
      "Lecturas",
      "Decisiones de triaje",
      "Obligaciones",
      "Notas",
    ]);
    const alerts = await page.getByTestId("evidence-alerts").locator("tbody tr").allTextContents();
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toContain("Correo");
    expect(alerts[0]).toContain("Bea Legal <bea@org-a.example>");
    expect(alerts[1]).toContain("En la plataforma");
    expect(await page.getByTestId("evidence-reads").textContent()).toContain("Bea Legal");
    const decisions = await page.getByTestId("evidence-decisions").locator("tbody tr").allTextContents();
    expect(decisions.map((row) => row.includes("Ana Ruiz") || row.includes("Bea Legal"))).toEqual([true, true, true]);
    expect(decisions[0]).toContain("En revisión");
    expect(decisions[1]).toContain("Legal");
    expect(decisions[2]).toContain("Aplica");
    const obligations = await page.getByTestId("evidence-obligations").locator("tbody tr").allTextContents();
    expect(obligations.map((row) => row.match(/Obligación \d/)?.[0])).toEqual(["Obligación 1", "Obligación 2"]);
    expect(await page.getByTestId("evidence-notes").textContent()).toContain("Nota para toda la organización");
    expect(await page.getByTestId("chain-verification").textContent()).toMatch(
      /Cadena de auditoría verificada: válida/,
    );
    // The pack's JSON download, the same data.
    const download = await page.request.get(`${server.url}/app/evidence/export?document=${story.boeDocumentId}`);
    expect(download.status()).toBe(200);
    expect(((await download.json()) as { audit: { verification: { valid: boolean } } }).audit.verification.valid).toBe(
      true,
    );
    // The PDF beside it, read back by a PDF parser.
    const pdfHref = await page.getByTestId("evidence-pdf").getAttribute("href");
    const pdf = await page.request.get(`${server.url}${pdfHref}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.body())), { mergePages: true });
    expect(text).toContain("Decisiones de triaje");
    expect(text).toContain("Obligación 2");
    expect(text).toContain("Cadena válida");
    // An id nobody has: the form again, saying so, answered 404 (the browser logs the status, nothing else).
    const before = errors.length;
    await page.getByLabel("Identificador del documento").fill("BOE-A-1999-99999");
    await page.getByRole("button", { name: "Ver el expediente" }).click();
    await page.getByText("No encontramos ese documento entre los que puede ver tu organización.").waitFor();
    expect(errors.splice(before).every((error) => error.includes("status of 404"))).toBe(true);
    await page.goBack();
    await pack.waitFor();
    // Printing hides the platform's chrome and the form.
    await page.emulateMedia({ media: "print" });
    expect(await page.locator("header").first().isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Ver el expediente" }).isVisible()).toBe(false);
    expect(await pack.isVisible()).toBe(true);
    await page.emulateMedia({ media: "screen" });
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  test("the overview draws three charts, each with its data table, and filters without JavaScript", async () => {
    const { page, close } = await openPage(browser, { locale: "es-ES", javaScriptEnabled: false });
    await page.context().addCookies(cookiesOf(ana));
    await page.goto(`${server.url}/app/overview`);
    expect(await page.getByRole("img").count()).toBeGreaterThanOrEqual(3);
    await page.getByText("Ver los datos en una tabla").first().click();
    expect(await page.getByRole("table").first().isVisible()).toBe(true);
    await page.getByLabel("Grupo", { exact: true }).selectOption({ label: "Legal" });
    await page.getByRole("button", { name: "Aplicar" }).click();
    await page.waitForURL(/group=team-legal/);
    expect(await page.getByText("Documentos en triaje: 1. Vencidos: 0.", { exact: true }).count()).toBe(1);
    await close();
  }, 60_000);

  test("the organisation's calendar URL serves ICS without a session, and 404 once revoked", async () => {
    const { page, errors, close } = await openPage(browser, { locale: "es-ES" });
    await page.context().addCookies(cookiesOf(ana));
    await page.goto(`${server.url}/app/admin/calendar`);
    await page.getByRole("button", { name: "Crear dirección" }).click();
    const url = await page.getByLabel("Dirección del calendario").inputValue();
    expect(url).toMatch(/\/calendar\/cal_[A-Za-z0-9_-]{43}\.ics$/);
    const feed = await fetch(url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(await feed.text()).toContain(`UID:obligation-${story.obligationIds[0]}@vigia-normativo`);
    await page.getByRole("button", { name: "Revocar" }).click();
    await page.getByText("Dirección revocada: ya no funciona.").waitFor();
    expect((await fetch(url)).status).toBe(404);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  // Each page loaded once, audited in light (the system preference) and in dark (the toggle's mode).
  test.each(["overview", "evidence"])(
    "%s in light and dark mode has no axe violations",
    async (name) => {
      const { page, close } = await openPage(browser, {
        locale: "es-ES",
        colorScheme: "light",
        viewport: { width: 1440, height: 900 },
      });
      await page.context().addCookies(cookiesOf(ana));
      await page.goto(
        `${server.url}${name === "overview" ? "/app/overview" : `/app/evidence?document=${story.boeDocumentId}`}`,
      );
      for (const details of await page.locator("details:not(.app-admin-menu):not(.app-user-menu)").all()) {
        await details.locator("summary").click();
      }
      expect(await axeViolations(page)).toEqual([]);
      await switchColorMode(page, "dark");
      expect(await axeViolations(page), "dark").toEqual([]);
      await close();
    },
    60_000,
  );

  test.each([390, 1440])(
    "the pages at %i px, light and dark, fit the viewport",
    async (width) => {
      const pages: [string, string][] = [
        ["overview", "/app/overview"],
        ["evidence", `/app/evidence?document=${story.boeDocumentId}`],
        ["document", `/app/documents/${story.boeDocumentId}`],
        ["calendar-account", "/app/account/calendar"],
        ["calendar-admin", "/app/admin/calendar"],
      ];
      const { page, errors, close } = await openPage(browser, {
        locale: "es-ES",
        viewport: { width, height: 900 },
        colorScheme: "light",
      });
      await page.context().addCookies(cookiesOf(ana));
      // In Spanish, then in English (the member's language).
      for (const language of ["es", "en"] as const) {
        await server.app.database.rows(sql`update auth_user set locale = ${language} where id = ${ana.member.userId}`);
        for (const [name, pathname] of pages) {
          await page.goto(`${server.url}${pathname}`);
          for (const colorScheme of ["light", "dark"] as const) {
            await switchColorMode(page, colorScheme);
            // The page itself never scrolls sideways (charts scroll inside their own region).
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            expect(overflow, `${name} ${language} ${colorScheme}`).toBeLessThanOrEqual(0);
            const dir = process.env.EVIDENCE_SCREENSHOTS;
            if (dir) {
              mkdirSync(dir, { recursive: true });
              await page.screenshot({
                path: path.join(dir, `${name}-${width}-${language}-${colorScheme}.png`),
                fullPage: true,
              });
            }
          }
        }
      }
      await server.app.database.rows(sql`update auth_user set locale = 'es' where id = ${ana.member.userId}`);
      expect(errors).toEqual([]);
      await close();
    },
    240_000,
  );
});
