/**
 * Issue 39's browser story, in Chromium against the built app (in process, PGlite), the source
 * replay moved in time and a real SMTP peer: a compliance officer finds a law by its name, follows
 * two of its articles, a recorded act that amends one of them is published, the act's page says
 * which article it changes, one alert says why, an obligation is anchored to that article, the
 * consolidated text changes, the obligation goes to review with the word-level comparison, the
 * decision is recorded, and the evidence pack holds the chain.
 *
 * The law is Ley 39/2015 (BOE-A-2015-10565) and the act Ley Orgánica 3/2018 (BOE-A-2018-16673),
 * whose final provisions give article 28 a new wording: the recorded sources hold that pair with
 * both consolidated versions. No recorded act amends the subsidies laws ("subvenciones") of the
 * catalogue, so the story searches the way a person would for this one: by its name
 * ("procedimiento administrativo común").
 *
 * The story runs in Spanish at 1440 px; every page of it is then seen again in English at 390 px.
 * axe (WCAG A/AA and best practice) on each page, in both.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseDirectory } from "../../app/.server/alerts/directory.ts";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { alerts, documents } from "../../app/.server/db/schema.ts";
import { fixturesDir } from "../../app/.server/fixtures-path.ts";
import { registerLaw } from "../../app/.server/law-texts/store.ts";
import { configureLawAlerts, lawAlertsFor, lawDocumentStored } from "../../app/.server/laws/service.ts";
import { syncCatalogue } from "../../app/.server/sources/catalogue/sync.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { pollAndAlert } from "../../app/.server/sources/consolidated/alerting.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { ingestBoeDay } from "../../app/.server/sources/ingest.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { axeViolations } from "../support/axe.ts";
import { launchBrowser, openPage } from "../support/browser.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { totpFromUri } from "../support/totp.ts";

const LAW = "BOE-A-2015-10565";
const ACT = "BOE-A-2018-16673";
const password = "tortuga-verde-lunes-27";

/** axe clean and nothing wider than the screen. */
async function pageIsClean(page: Page, label: string) {
  await page.waitForLoadState("load");
  expect(await axeViolations(page), label).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${label}: wider than the screen`).toBeLessThanOrEqual(0);
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
  // The law poll runs in this process (as the source's job runs in the server's): the audit events
  // it records sign the chain's head with the server's secret (in-process-server's AUTH_SECRET).
  setAuditSecret("auth-secret-auth-secret-auth-secret-0123");
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
  await replay?.close();
});

const http = (source: "boe" | "cellar") =>
  createSourceHttp({ userAgent: "test", source, perSecond: 10_000, retries: 1, backoffMs: 10 });

/** The law poll as the source's job runs it, on the replay's day. */
async function pollLaw(day: string) {
  configureLawAlerts({ siteUrl: server.url, mailFrom: "alertas@vigia.example" });
  return pollAndAlert(
    {
      database: server.app.database,
      http: http("boe"),
      baseUrl: replay.url,
      log: { info() {}, warn() {} },
      now: () => new Date(`${day}T12:00:00Z`),
      lawAlerts: lawAlertsFor(server.app.database, databaseDirectory(server.app.database)),
    },
    { only: [LAW] },
  );
}

/** The BOE day the act was published, read as the source job reads it, each document then announced to the law's followers. */
async function publishActDay() {
  const written = readFileSync(path.join(fixturesDir, "laws/BOE-A-2018-16673.daily.xml"), "utf8");
  replay.setFaults([{ pattern: new RegExp(`xml\\.php\\?id=${ACT}$`), kind: "body", body: written }]);
  const clients = createSourceClients({
    urls: { boeApiUrl: replay.url, eurlexUrl: replay.url, cellarUrl: replay.url, cellarSparqlUrl: replay.sparqlUrl },
    siteUrl: server.url,
    perSecond: 10_000,
    retries: 1,
    backoffMs: 10,
  });
  const directory = databaseDirectory(server.app.database);
  await ingestBoeDay(
    {
      database: server.app.database,
      clients,
      log: { info() {}, warn() {}, error() {} },
      concurrency: 4,
      onDocument: async (documentId) => {
        await lawDocumentStored(server.app.database, documentId, directory);
      },
    },
    "2018-12-06",
  );
  replay.setFaults([]);
}

const started = Date.now();
const step = (name: string) => console.log(`[story e2e] ${((Date.now() - started) / 1000).toFixed(1)} s: ${name}`);

describe("issue 39: from publication to proof, in the browser", () => {
  test("find the law by name → follow two articles → the amending act → why → obligation → review → evidence", async () => {
    // The law as it stood before the act; the catalogue of laws to follow, as the daily job reads it.
    replay.setLawDate("2018-11-01");
    replay.setLawChangeList(false);
    await registerLaw(server.app.database, LAW, "boe");
    expect((await pollLaw("2018-11-01")).laws.map((l) => l.status)).toEqual(["first"]);
    // (the BOE's consolidated list answers only with the change list on; the polls then read the law itself)
    replay.setLawChangeList(true);
    await syncCatalogue({
      database: server.app.database,
      boeHttp: http("boe"),
      cellarHttp: http("cellar"),
      boeApiUrl: replay.url,
      cellarSparqlUrl: replay.sparqlUrl,
      log: { info() {}, warn() {} },
    });
    replay.setLawChangeList(false);
    step("law and catalogue");

    const { page, errors, close } = await openPage(browser, {
      locale: "es-ES",
      viewport: { width: 1440, height: 900 },
    });
    const setupUrl = readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim();
    await page.goto(setupUrl);
    await page.getByLabel("Nombre de la organización").fill("Org Historia");
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

    // 1. Find the law by its name in the catalogue, from the keyboard, and follow it.
    await page.goto(`${server.url}/app/laws/catalogue`);
    await page.getByLabel("Norma", { exact: true }).fill("procedimiento administrativo común");
    await page.keyboard.press("Enter");
    await page.waitForURL(/q=procedimiento/);
    const result = page.getByTestId("catalogue-results").locator(`li[data-law="${LAW}"]`);
    await result.waitFor({ timeout: 5_000 }).catch(async (error) => {
      console.log(await page.locator("main").textContent());
      throw error;
    });
    await pageIsClean(page, "catalogue es 1440");
    await result.getByRole("button", { name: "Seguir", exact: true }).click();
    await page
      .getByRole("status")
      .getByText(/sigues/i)
      .waitFor();
    step("found and followed");

    // 2. Two articles: the whole-law follow becomes articles 28 and 32 on the law's page.
    await page.goto(`${server.url}/app/laws/${LAW}?block=a28#b-a28`);
    await page.getByRole("heading", { name: "Cambiar lo que sigues", exact: true }).waitFor();
    await page.getByLabel("Las partes marcadas en el índice").check();
    await page.getByRole("checkbox", { name: /^Seguir Artículo\s28$/ }).check();
    await page.getByRole("checkbox", { name: /^Seguir Artículo\s32$/ }).check();
    await page.getByRole("button", { name: "Guardar cambios", exact: true }).click();
    await page.getByText(/Listo: ahora sigues Artículo\s28, Artículo\s32\./).waitFor();
    await pageIsClean(page, "law es 1440");
    step("two articles");

    // 3. The act is published: its page says which article of the followed law it changes.
    await publishActDay();
    const [act] = await server.app.database.db
      .select({ id: documents.id })
      .from(documents)
      .where(eq(documents.sourceId, ACT));
    expect(act).toBeDefined();
    await page.goto(`${server.url}/app/documents/${act!.id}`);
    const changes = page.getByTestId("document-changes");
    await changes.waitFor();
    // The line as the BOE's analysis words it ("Modifica el art. 28.2 y 3 de la Ley 39/2015…").
    expect(await changes.textContent()).toMatch(/Modifica el art(?:ículo|\.) 28\S* .*de la Ley 39\/2015/);
    // Its link opens the law at that article (the page's anchor for it), which is in view.
    await changes
      .getByRole("link", { name: /en ese punto/ })
      .first()
      .click();
    await page.waitForURL(/\/app\/laws\/BOE-A-2015-10565\?block=a28#b-a28$/);
    await expect.poll(() => page.locator("#b-a28").isVisible()).toBe(true);
    await page.goBack();
    await pageIsClean(page, "act es 1440");
    step("act page");

    // 4. One alert, and it says why: the follow, the act, article 28.
    await expect
      .poll(async () => (await server.app.database.db.select().from(alerts)).length, { timeout: 60_000 })
      .toBe(1);
    await page.goto(`${server.url}/app/alerts`);
    const alert = page.getByTestId("alert-item");
    await expect.poll(() => alert.count(), { timeout: 30_000 }).toBe(1);
    const why = (await alert.textContent()) ?? "";
    expect(why).toMatch(/Artículo\s28/);
    expect(why).toMatch(/sigues|seguimiento/i);
    await pageIsClean(page, "alerts es 1440");
    step("alert says why");

    // 5. An obligation anchored to that article, at the version in force, from the law page (keyboard).
    await page.goto(`${server.url}/app/laws/${LAW}?block=a28`);
    const record = page.locator("#b-a28").getByRole("link", { name: /^Registrar una obligación en Artículo\s28/ });
    await record.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/obligations\/new\?block=a28&version=BOE-A-2015-10565/);
    await page.getByLabel("Título").fill("No pedir al interesado documentos que ya tiene la Administración");
    await page.getByLabel("Responsable").selectOption({ label: "Ana" });
    await page.getByRole("button", { name: "Guardar la obligación" }).click();
    await page.getByText(/Obligación registrada \(Artículo\s28\)\./).waitFor();
    await pageIsClean(page, "obligations es 1440");
    step("obligation");

    // 6. The consolidated text catches up: article 28's new wording; the obligation goes to review.
    replay.setLawDate("2018-12-06");
    const moved = await pollLaw("2018-12-06");
    expect(moved.laws.map((l) => [l.status, l.writes.map((w) => w.blockId)])).toEqual([["changed", ["a28"]]]);
    await page.goto(`${server.url}/app/obligations?review=1`);
    const toReview = page.getByTestId("obligations-register").locator("tbody tr");
    await expect.poll(() => toReview.count()).toBe(1);
    await page.getByRole("link", { name: /^Revisar\s*:\s*No pedir al interesado/ }).click();
    await page.waitForURL(/\/review$/);
    const reviewPath = new URL(page.url()).pathname;
    await page.getByTestId("review-needed").waitFor();
    // The review shows the comparison word by word: the act's new wording against the anchored one.
    const diff = page.getByTestId("diff-inline");
    expect(await diff.locator("ins").count()).toBeGreaterThan(0);
    expect(await diff.locator("del").count()).toBeGreaterThan(0);
    await pageIsClean(page, "review es 1440");

    // 7. The decision, recorded and audited; the obligation is anchored to the new version.
    await page.getByRole("radio", { name: "Sigue aplicando" }).check();
    await page.getByLabel("Nota para el registro (opcional)").fill("Revisado frente a la LO 3/2018");
    await page.getByRole("button", { name: "Guardar la decisión" }).click();
    await page
      .getByText("Decisión guardada y obligación anclada a la nueva versión.")
      .waitFor()
      .catch(async (error) => {
        console.log(page.url(), await page.locator("main").textContent());
        throw error;
      });
    expect(await page.getByTestId("review-history").textContent()).toContain("Sigue aplicando por Ana");
    step("review decided");

    // 8. The act's evidence pack, from its page, as a PDF read back by a PDF parser: the act, the
    // obligation on the article it re-worded with the decision, and the audit chain valid.
    await page.goto(`${server.url}/app/documents/${act!.id}`);
    const pdfHref = await page.getByTestId("document-evidence").getByRole("link").nth(1).getAttribute("href");
    const pdf = await page.request.get(`${server.url}${pdfHref}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.body())), { mergePages: true });
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain(ACT);
    expect(flat).toContain("No pedir al interesado documentos que ya tiene la Administración");
    expect(flat).toMatch(/Artículo 28/);
    expect(flat).toContain("Sigue aplicando");
    expect(flat).toContain("Cadena válida");
    await page.getByTestId("document-evidence").getByRole("link").first().click();
    await page.waitForURL(/\/app\/evidence\?/);
    await pageIsClean(page, "evidence es 1440");
    step("evidence");

    // Every page of the story again, in English at a phone's width.
    await page
      .getByRole("button", { name: "English" })
      .first()
      .click()
      .catch(() => undefined);
    await page.context().addCookies([{ name: "locale", value: "en", url: server.url }]);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [label, pathname] of [
      ["catalogue", "/app/laws/catalogue?q=LPACAP"],
      ["law", `/app/laws/${LAW}?block=a28`],
      ["act", `/app/documents/${act!.id}`],
      ["alerts", "/app/alerts"],
      ["obligations", "/app/obligations"],
      ["review", reviewPath],
      ["evidence", `/app/evidence?document=${act!.id}`],
    ] as const) {
      const response = await page.goto(`${server.url}${pathname}`);
      expect(response?.status(), pathname).toBe(200);
      expect(await page.locator("html").getAttribute("lang"), pathname).toBe("en");
      await pageIsClean(page, `${label} en 390`);
    }
    step("en 390");

    expect(errors).toEqual([]);
    await close();
  }, 600_000);
});
