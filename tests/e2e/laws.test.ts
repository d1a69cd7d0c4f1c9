/**
 * Issue 25's first "Done when" line, in Chromium against the built app (in this process, PGlite),
 * the source replay moved in time and a real SMTP peer: a member follows two articles of Ley
 * 39/2015 (BOE-A-2015-10565) as it stood on 2018-11-01 (articles 28 and 32, ticked in the law
 * page's contents); the replay moves to 2018-12-06, when BOE-A-2018-16673 gave article 28 a new
 * wording; the law poll runs: exactly one alert, for article 28 (in-app and by mail), none for
 * article 32; the comparison shows the change word by word; the page still shows the earlier text
 * when that date is chosen. axe-clean, in Spanish and English.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import axe from "axe-core";
import { eq, sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseDirectory } from "../../app/.server/alerts/directory.ts";
import { alertProfiles, alerts } from "../../app/.server/db/schema.ts";
import { registerLaw } from "../../app/.server/law-texts/store.ts";
import { configureLawAlerts, lawAlertsFor } from "../../app/.server/laws/service.ts";
import { syncCatalogue } from "../../app/.server/sources/catalogue/sync.ts";
import { pollAndAlert } from "../../app/.server/sources/consolidated/alerting.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { launchBrowser, openPage, switchColorMode } from "../support/browser.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { totpFromUri } from "../support/totp.ts";

const LAW = "BOE-A-2015-10565";
/** An id followed and never fetched here (this server does not ingest): its page says the text is pending. */
const PENDING = "BOE-A-2099-77";

/** SCREENSHOTS=1: look at what was built (screenshots/app/laws-*.png). */
async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  const dir = path.resolve(import.meta.dirname, "../../screenshots/app");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `laws-${name}.png`), fullPage: true });
}
const password = "tortuga-verde-lunes-27";

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axe.source);
  return (await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target.map(String) })),
    }));
  })) as AxeViolation[];
}

let replay: ReplayServer;
let smtp: SmtpSink;
let server: Awaited<ReturnType<typeof startInProcessServer>>;
let browser: Browser;

beforeAll(async () => {
  replay = await startReplayServer();
  smtp = await startSmtpSink();
  server = await startInProcessServer({
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    BOE_API_URL: replay.url,
    MAIL_FROM: "alertas@vigia.example",
  });
  browser = await launchBrowser();
  // A built app on a fresh PGlite: minutes on a 2-core machine shared by eight engineers.
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
  await replay?.close();
});

/** The law poll as the source's job runs it, on the replay's day. */
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

const started = Date.now();
const step = (name: string) => console.log(`[laws e2e] ${((Date.now() - started) / 1000).toFixed(1)} s: ${name}`);

describe("following articles of a law in the browser", () => {
  test("two articles followed as of 2018; the replay moves on; one alert, the word-level change, the earlier text", async () => {
    replay.setLawDate("2018-11-01");
    // No change list (as when the API answers 404): the poll checks the followed law itself.
    replay.setLawChangeList(false);
    await registerLaw(server.app.database, LAW, "boe");
    const first = await pollLaws("2018-11-01");
    expect(first.laws.map((l) => l.status)).toEqual(["first"]);

    step("first poll");
    const { page, errors, close } = await openPage(browser, {
      locale: "es-ES",
      viewport: { width: 1280, height: 900 },
    });
    const setupUrl = readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim();
    await page.goto(setupUrl);
    await page.getByLabel("Nombre de la organización").fill("Org Leyes");
    await page.getByLabel("Tu nombre").fill("Ana");
    await page.getByLabel("Tu correo electrónico").fill("ana@example.com");
    await page.getByLabel("Contraseña (mínimo 12 caracteres)").fill(password);
    await page.getByRole("button", { name: "Crear organización" }).click();
    await page.waitForURL(/\/app\/mfa$/);
    const uri = (await page.getByTestId("otpauth-uri").textContent())?.trim() ?? "";
    await page.getByLabel("Código de la aplicación").fill(totpFromUri(uri));
    await page.getByRole("button", { name: "Activar" }).click();
    await page.waitForURL(/\/app$/);

    step("signed in");
    // From the menu to the laws page, then the law.
    await page.getByRole("link", { name: "Leyes" }).click();
    await page.waitForURL(/\/app\/laws$/);
    // A law's page opens once the organisation follows it (issue 37): first the whole law, by its id.
    await page.getByLabel("Identificador BOE, ELI o CELEX").fill(LAW);
    await page.getByRole("button", { name: "Seguir", exact: true }).click();
    await page.getByText("Listo: sigues toda la ley. Te avisaremos de cada cambio.").waitFor();
    // A law followed whose text has not come yet has a page that says so (issue 37 item 6), not a 500.
    await page.getByLabel("Identificador BOE, ELI o CELEX").fill(PENDING);
    await page.getByRole("button", { name: "Seguir", exact: true }).click();
    await page.getByRole("link", { name: PENDING }).waitFor();
    await page.goto(`${server.url}/app/laws/${PENDING}`);
    await page.getByRole("heading", { level: 2, name: "El texto aún no ha llegado" }).waitFor();
    expect(await page.getByTestId("law-pending").textContent()).toContain("la ingesta está desactivada");
    await page.getByRole("button", { name: "Dejar de seguir: Toda la ley" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, "pending-es-1280-light");
    await page.setViewportSize({ width: 390, height: 844 });
    await switchColorMode(page, "dark");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, "pending-es-390-dark");
    await switchColorMode(page, "light");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/app/laws/${LAW}`);
    await page.getByRole("heading", { level: 1, name: /Ley 39\/2015/ }).waitFor();
    // The law is read a part at a time: the contents lead to the part that holds article 28.
    expect(await page.getByTestId("law-parts").textContent()).toMatch(/Parte 1 de \d+/);
    await page.getByRole("link", { name: /^Artículo\s28$/ }).click();
    await page.waitForURL(/#b-a28$/);
    // Today's text of article 28 (the replay stands in 2018: the 2015 wording).
    const art28 = page.locator("#b-a28");
    expect(await art28.textContent()).toContain("Artículo 28. Documentos aportados por los interesados");

    // Follow articles 28 and 32, ticked in the contents, with the keyboard.
    await page.getByLabel("Las partes marcadas en el índice").check();
    await page.getByRole("checkbox", { name: /^Seguir Artículo\s28$/ }).focus();
    await page.keyboard.press("Space");
    await page.getByRole("checkbox", { name: /^Seguir Artículo\s32$/ }).check();
    // The member already follows the whole law: the form changes that follow (issue 40: no second one).
    await page.getByRole("heading", { name: "Cambiar lo que sigues", exact: true }).waitFor();
    await page.getByRole("button", { name: "Guardar cambios", exact: true }).click();
    await page.getByText(/Listo: ahora sigues Artículo\s28, Artículo\s32\./).waitFor();
    // Only those two, in the one follow; the form shows them ticked.
    expect(await page.getByRole("button", { name: /^Dejar de seguir/ }).count()).toBe(1);
    expect(await page.getByRole("checkbox", { name: /^Seguir Artículo\s28$/ }).isChecked()).toBe(true);
    const [profile] = await server.app.database.db
      .select({ lawBlocks: alertProfiles.lawBlocks })
      .from(alertProfiles)
      .where(eq(alertProfiles.lawId, LAW));
    expect(profile?.lawBlocks).toEqual(["a28", "a32"]);
    expect(await axeViolations(page)).toEqual([]);

    step("followed");
    // The replay moves to the day BOE-A-2018-16673 was published; the law poll runs.
    replay.setLawDate("2018-12-06");
    const moved = await pollLaws("2018-12-06");
    expect(moved.laws.map((l) => [l.status, l.writes.map((w) => w.blockId)])).toEqual([["changed", ["a28"]]]);
    // Exactly one alert, for article 28, in-app…
    // (the delivery worker turns the match into the in-app alert and the mail)
    await expect
      .poll(async () => (await server.app.database.db.select().from(alerts)).length, { timeout: 60_000 })
      .toBe(1);
    // …and by mail through the SMTP peer, naming article 28 and not 32.
    await expect.poll(() => smtp.messages.length, { timeout: 30_000 }).toBe(1);
    const mail = smtp.messages[0]!;
    expect(mail.to.join(",")).toContain("ana@example.com");
    expect(mail.raw.replace(/=\r?\n/g, "")).toMatch(/Art=C3=ADculo.28|Artículo.28/);
    // Article 32 is named only as part of what the follow covers (its name), never as a new wording.
    expect(mail.raw.replace(/=\r?\n/g, "")).toMatch(/Art(?:=C3=AD|í)culo.28 (?:=E2=80=94|—)/);
    expect(mail.raw.replace(/=\r?\n/g, "")).not.toMatch(/Art(?:=C3=AD|í)culo.32 (?:=E2=80=94|—)/);
    await page.goto(`${server.url}/app/alerts`);
    await expect.poll(() => page.getByTestId("alert-item").count()).toBe(1);
    // The alert opens the law at the part that holds the changed article, and names it.
    await page.getByTestId("alert-item").getByRole("link").first().click();
    await page.waitForURL(/\/app\/laws\/[^?]+\?change=/);
    expect(await page.getByTestId("law-change").textContent()).toMatch(/Artículo\s28/);
    expect(await page.locator("#b-a28").count()).toBe(1);

    step("alerted");
    // The comparison of article 28's two versions, word by word, inline and side by side.
    await page.goto(`${server.url}/app/laws/${LAW}/compare?block=a28`);
    await page.getByRole("heading", { level: 1, name: /Comparar versiones: Artículo\s28/ }).waitFor();
    const inline = page.getByTestId("diff-inline");
    const insertions = inline.locator("ins");
    const deletions = inline.locator("del");
    expect(await insertions.count()).toBeGreaterThan(0);
    expect(await deletions.count()).toBeGreaterThan(0);
    // Announced by text, not only by colour.
    expect(await insertions.first().textContent()).toMatch(/^añadido: /);
    expect(await deletions.first().textContent()).toMatch(/^suprimido: /);
    // Word level: an insertion is a few words, not the whole paragraph.
    const shortest = Math.min(...(await insertions.allTextContents()).map((s) => s.length));
    expect(shortest).toBeLessThan(120);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Lado a lado" }).click();
    await page.getByTestId("diff-side").waitFor();
    expect(await page.getByTestId("diff-side").locator("ins").count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);

    step("compared");
    // Today the new wording; on the earlier date, the earlier one (the date form keeps the part).
    await page.goto(`${server.url}/app/laws/${LAW}?block=a28`);
    const now28 = (await page.locator("#b-a28").textContent()) ?? "";
    await page.getByLabel("Fecha", { exact: true }).fill("2018-11-01");
    await page.getByRole("button", { name: "Ver el texto" }).click();
    await page.waitForURL(/date=2018-11-01/);
    await page
      .getByTestId("law-date")
      .getByText(/1 de noviembre de 2018/)
      .waitFor();
    const then28 = (await page.locator("#b-a28").textContent()) ?? "";
    expect(then28).not.toBe(now28);
    const versions = await server.app.database.db.execute(
      sql`select text from law_block_versions where law_id = ${LAW} and block_id = 'a28' order by published_on`,
    );
    const [oldText, newText] = (versions as unknown as { rows: Array<{ text: string }> }).rows.map((r) => r.text);
    // Paragraphs are separate elements: compare without whitespace.
    const squash = (s: string) => s.replace(/\s+/g, "");
    expect(squash(then28)).toContain(squash(oldText ?? "x"));
    expect(squash(now28)).toContain(squash(newText ?? "x"));
    expect(squash(then28)).not.toContain(squash(newText ?? "x"));

    // In English: the platform's language switch, then the same pages.
    await page.getByRole("button", { name: "English" }).click();
    await page.goto(`${server.url}/app/laws/${LAW}?date=2018-11-01`);
    await page.getByRole("heading", { name: "Change what you follow", exact: true }).waitFor();
    await page.getByText("Text in force on 1 November 2018.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${server.url}/app/laws/${LAW}/compare?block=a28&view=side`);
    await page
      .getByRole("heading", { level: 1, name: /Compare versions: Article|Compare versions: Artículo/ })
      .waitFor();
    expect(await page.getByTestId("diff-side").locator("ins").first().textContent()).toMatch(/^added: /);
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${server.url}/app/laws/${PENDING}`);
    await page.getByRole("heading", { level: 2, name: "The text has not arrived yet" }).waitFor();
    expect(await page.getByTestId("law-pending").textContent()).toContain("ingestion is off");
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, "pending-en-1280-light");

    step("catalogue");
    // The catalogue of laws to follow (issue 39): found by an acronym, typed and sent from the keyboard.
    replay.setLawChangeList(true);
    await syncCatalogue({
      database: server.app.database,
      boeHttp: createSourceHttp({ userAgent: "test", source: "boe", perSecond: 10_000, retries: 1, backoffMs: 10 }),
      cellarHttp: createSourceHttp({
        userAgent: "test",
        source: "cellar",
        perSecond: 10_000,
        retries: 1,
        backoffMs: 10,
      }),
      boeApiUrl: replay.url,
      cellarSparqlUrl: replay.sparqlUrl,
      log: { info() {}, warn() {} },
    });
    await page.goto(`${server.url}/app/laws/catalogue`);
    await page.getByLabel("Law", { exact: true }).fill("gdpr");
    await page.keyboard.press("Enter");
    await page.waitForURL(/q=gdpr/);
    expect(await page.getByTestId("catalogue-results").locator("li").first().getAttribute("data-law")).toBe(
      "32016R0679",
    );
    expect(await axeViolations(page)).toEqual([]);
    // Ley 39/2015, followed above, says so and opens its page; the LSSI is followed from its result.
    await page.goto(`${server.url}/app/laws/catalogue?q=LPACAP`);
    await page.getByTestId("catalogue-results").getByText("You follow it").waitFor();
    await page.getByRole("link", { name: "Open the law" }).waitFor();
    await page.goto(`${server.url}/app/laws/catalogue?q=lssi`);
    await page.getByRole("button", { name: "Follow", exact: true }).focus();
    await page.keyboard.press("Enter");
    await page
      .getByRole("status")
      .getByText(/you follow/i)
      .waitFor();
    const lssi = await server.app.database.db
      .select({ id: alertProfiles.id })
      .from(alertProfiles)
      .where(eq(alertProfiles.lawId, "BOE-A-2002-13758"));
    expect(lssi).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 420_000);
});
