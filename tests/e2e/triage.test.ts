/**
 * Issue 26's first "Done when", in Chromium against the built app (in this process, PGlite, a real
 * SMTP peer): an alert brings a document; a member sets it under review, assigns a group and a
 * due date; another member of that group sees it in "my work", marks it as applying and records
 * two obligations anchored to paragraphs; the reminder mail reaches that member before the due
 * date (and the notification centre has it). Then the owner's evidence pack lists all of it in order
 * with a valid chain. Also: the pages without JavaScript (field errors in Spanish), a
 * member of another organisation gets a 404 on a feed entry outside its reach, and screenshots of
 * the new pages at 390 and 1440 px, light and dark (axe clean), go to TRIAGE_SCREENSHOTS when it is set.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import axe from "axe-core";
import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { alertProfiles } from "../../app/.server/db/schema.ts";
import { addDays, madridDay } from "../../app/.server/triage/due-date.ts";
import { runReminders } from "../../app/.server/triage/reminders.ts";
import { insertStoredDocument } from "../support/alerts-fixtures.ts";
import { launchBrowser, openPage, switchColorMode } from "../support/browser.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { acceptOwnerInvitation, inviteMember, type SignedIn, setupOwner } from "../support/platform-members.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";

let server: Awaited<ReturnType<typeof startInProcessServer>>;
let browser: Browser;
let sink: SmtpSink;
let ana: SignedIn;
let bea: SignedIn;
let carl: SignedIn;
let documentId = "";
let feedDocumentId = "";
const today = madridDay(new Date());
const due = addDays(today, 2);

/** axe's WCAG rules (A, AA, best practice) on the page as it is now. */
async function axeViolations(page: Page) {
  // The CSP allows no foreign inline script: evaluate axe's source instead of adding a <script>.
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return result.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.map(String)) }));
  });
}

/** The reminder mails the SMTP peer got for one address (its invitation went through it too): they link to the document (quoted-printable soft breaks undone). */
function reminderMailsTo(address: string) {
  return sink.messages.filter(
    (m) => m.to.includes(address) && m.raw.replace(/=\r?\n/g, "").includes(`/app/documents/${documentId}`),
  );
}

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
  sink = await startSmtpSink();
  server = await startInProcessServer({ SMTP_URL: sink.url });
  browser = await launchBrowser();
  const auth = server.app.services.auth;
  ana = await setupOwner(auth, server.dataDir, { email: "ana@a.example", name: "Ana Ruiz", organizationName: "Org A" });
  const groupId = await auth.createGroup(ana.member, "Cumplimiento", ana.meta());
  bea = await inviteMember(auth, ana, { email: "bea@a.example", name: "Bea Soto", groupIds: [groupId] });
  const other = await auth.createOrganizationWithOwnerInvitation({
    name: "Org B",
    adminEmail: "carl@b.example",
    locale: "es",
  });
  carl = await acceptOwnerInvitation(auth, other.url, { email: "carl@b.example", name: "Carl Vidal" });
  const database = server.app.database;
  documentId = await insertStoredDocument(database, {
    title: "Real Decreto de prevención del blanqueo de capitales",
    areas: ["aml"],
  });
  await database.rows(sql`update documents set effective_dates = ${JSON.stringify([addDays(today, 20)])}::jsonb,
    paragraphs = ${JSON.stringify([
      { kind: "heading", text: "Artículo 1. Diligencia debida" },
      { kind: "paragraph", text: "Los sujetos obligados identificarán al titular real de sus clientes." },
      { kind: "paragraph", text: "Se conservarán los documentos durante diez años." },
    ])}::jsonb where id = ${documentId}::uuid`);
  // A private feed entry of organisation A: outside organisation B's reach.
  const [feed] = await database.rows<{ id: string }>(sql`insert into source_feeds (organization_id, url, name)
    values (${ana.member.organizationId}, 'https://a.example/feed.rss', 'Privado A') returning id`);
  const [entry] = await database.rows<{ id: string }>(sql`insert into documents
    (source, source_id, feed_id, title, language, published_on, official_url, record, content_hash, paragraphs)
    values ('feed', 'a-1', ${feed!.id}, 'Aviso reservado de A', 'es', ${today}, '', '{}'::jsonb, 'h',
      ${JSON.stringify([{ kind: "paragraph", text: "reservado" }])}::jsonb) returning id`);
  feedDocumentId = entry!.id;
  await database.db.insert(alertProfiles).values({
    id: randomUUID(),
    organizationId: ana.member.organizationId,
    userId: ana.member.userId,
    name: "Blanqueo",
    areas: ["aml"],
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.stop();
});

describe("triage in the browser", () => {
  test("alert → under review, group, due date → my work → applies, two obligations → reminder mail", async () => {
    // The alert arrives: the document is "new" for organisation A, due on its entry into force.
    await server.app.services.alerts.matchNow(documentId);
    const anaPage = await openPage(browser, { locale: "es-ES", viewport: { width: 1440, height: 900 } });
    await anaPage.page.context().addCookies(cookiesOf(ana));
    await anaPage.page.goto(`${server.url}/app/documents/${documentId}`);
    const panel = anaPage.page.getByTestId("triage-panel");
    expect(await panel.getByLabel("Estado").inputValue()).toBe("new");
    expect(await panel.getByLabel("Fecha límite").inputValue()).toBe(addDays(today, 20));
    expect(await anaPage.page.getByTestId("due-source").textContent()).toContain("entrada en vigor");
    await panel.getByLabel("Estado").selectOption("under_review");
    await panel.getByLabel("Responsable").selectOption({ label: "Cumplimiento (grupo)" });
    await panel.getByLabel("Fecha límite").fill(due);
    await panel.getByLabel("Impacto").selectOption("high");
    await panel.getByRole("button", { name: "Guardar el triaje" }).click();
    await anaPage.page.getByText("Triaje guardado.").waitFor();
    await expect
      .poll(() => anaPage.page.getByTestId("triage-history").textContent())
      .toContain("Estado: Nuevo → En revisión");
    expect(anaPage.errors).toEqual([]);
    await anaPage.close();

    // Bea, in the group, sees it in "my work" and decides it applies.
    const beaPage = await openPage(browser, { locale: "es-ES", viewport: { width: 1440, height: 900 } });
    const page = beaPage.page;
    await page.context().addCookies(cookiesOf(bea));
    await page.goto(`${server.url}/app`);
    const work = page.getByTestId("my-work");
    await expect.poll(() => work.textContent()).toContain("Real Decreto de prevención del blanqueo de capitales");
    expect(await work.textContent()).toContain("vía Cumplimiento");
    await work.getByRole("link", { name: "Real Decreto de prevención del blanqueo de capitales" }).click();
    await page.waitForURL(/\/app\/documents\//);
    const beaPanel = page.getByTestId("triage-panel");
    await beaPanel.getByLabel("Estado").selectOption("applies");
    await beaPanel.getByLabel("Justificación").fill("Somos sujeto obligado.");
    await beaPanel.getByRole("button", { name: "Guardar el triaje" }).click();
    await page.getByText("Triaje guardado.").waitFor();

    // Two obligations, each anchored to its paragraph.
    for (const [paragraph, title] of [
      ["p-1", "Identificar al titular real"],
      ["p-2", "Conservar los documentos diez años"],
    ] as const) {
      const form = page.getByTestId("obligation-form");
      if (!(await form.evaluate((el) => (el as HTMLDetailsElement).open))) await form.locator("summary").click();
      await form.getByLabel("Párrafo del texto").selectOption(paragraph);
      await form.getByLabel("Título").fill(title);
      await form.getByLabel("Responsable").selectOption({ label: "Bea Soto" });
      await form.getByLabel("Fecha límite").fill(due);
      await form.getByLabel("Referencia interna (política o control)").fill("POL-KYC-3");
      const before = await page.getByTestId("obligation").count();
      await form.getByRole("button", { name: "Guardar la obligación" }).click();
      await page.getByText("Obligación guardada.").waitFor();
      await expect.poll(() => page.getByTestId("obligation").count()).toBe(before + 1);
    }
    const obligations = page.getByTestId("obligation");
    expect(await obligations.count()).toBe(2);
    expect(await obligations.first().textContent()).toContain("Los sujetos obligados identificarán al titular real");

    // Her reminders at midnight, two days ahead: the hourly job's next run sends them.
    await page.goto(`${server.url}/app/account`);
    const settings = page.getByTestId("reminder-settings");
    await settings.getByLabel("Hora del aviso (hora de Madrid)").selectOption("0");
    await settings.getByRole("button", { name: "Guardar los recordatorios" }).click();
    await page.getByText("Recordatorios guardados.").waitFor();
    expect(beaPage.errors).toEqual([]);
    await beaPage.close();

    const run = await runReminders(server.app.database, { siteUrl: server.url });
    expect(run).toEqual({ reminders: 3, mails: 3 });
    await expect.poll(() => reminderMailsTo("bea@a.example").length, { timeout: 30_000 }).toBe(3);
    expect(reminderMailsTo("ana@a.example")).toEqual([]);
    const [inbox] = await server.app.database.rows<{ n: number }>(
      sql`select count(*)::int as n from alerts where user_id = ${bea.member.userId} and title like 'Recordatorio%'`,
    );
    expect(inbox?.n).toBe(3);

    // The evidence pack, as Ana (the owner) opens it: the alert to her, the decisions of Ana then
    // Bea, the two obligations in the order recorded, and the audit excerpt with a valid chain.
    const evidence = await openPage(browser, { locale: "es-ES", viewport: { width: 1440, height: 900 } });
    await evidence.page.context().addCookies(cookiesOf(ana));
    await evidence.page.goto(`${server.url}/app/evidence`);
    await evidence.page.getByLabel("Identificador del documento").fill(documentId);
    await evidence.page.getByRole("button", { name: "Ver el expediente" }).click();
    const pack = evidence.page.getByTestId("evidence-document");
    await pack.waitFor();
    const alertRows = await evidence.page.getByTestId("evidence-alerts").locator("tbody tr").allTextContents();
    expect(alertRows.length).toBeGreaterThanOrEqual(1);
    expect(alertRows.every((row) => row.includes("Ana Ruiz"))).toBe(true);
    const decisions = await evidence.page.getByTestId("evidence-decisions").locator("tbody tr").allTextContents();
    expect(decisions.length).toBeGreaterThanOrEqual(2);
    // The alert's own "new" comes first (no author); then Ana's decisions (under review, the group,
    // the due date), then Bea's (applies).
    const anaDecisions = decisions.filter((row) => row.includes("Ana Ruiz"));
    const beaDecisions = decisions.filter((row) => row.includes("Bea Soto"));
    const firstAna = decisions.findIndex((row) => row.includes("Ana Ruiz"));
    const firstBea = decisions.findIndex((row) => row.includes("Bea Soto"));
    expect(firstAna).toBeGreaterThanOrEqual(0);
    expect(firstBea).toBeGreaterThan(firstAna);
    expect(decisions.slice(firstBea).some((row) => row.includes("Ana Ruiz"))).toBe(false);
    expect(anaDecisions.join(" ")).toContain("En revisión");
    expect(anaDecisions.join(" ")).toContain("Cumplimiento");
    expect(beaDecisions.join(" ")).toContain("Aplica");
    const obligationRows = await evidence.page
      .getByTestId("evidence-obligations")
      .locator("tbody tr")
      .allTextContents();
    expect(obligationRows).toHaveLength(2);
    expect(obligationRows[0]).toContain("Identificar al titular real");
    expect(obligationRows[1]).toContain("Conservar los documentos diez años");
    expect(await evidence.page.getByTestId("chain-verification").textContent()).toMatch(
      /Cadena de auditoría verificada: válida/,
    );
    const exported = await evidence.page.request.get(`${server.url}/app/evidence/export?document=${documentId}`);
    expect(exported.status()).toBe(200);
    const json = (await exported.json()) as { audit: { verification: { valid: boolean } } };
    expect(json.audit.verification.valid).toBe(true);
    expect(evidence.errors).toEqual([]);
    await evidence.close();
  }, 180_000);

  test("without JavaScript the triage form answers field errors in Spanish; another organisation gets 404", async () => {
    const { page, close } = await openPage(browser, { locale: "es-ES", javaScriptEnabled: false });
    await page.context().addCookies(cookiesOf(ana));
    await page.goto(`${server.url}/app/documents/${documentId}`);
    const panel = page.getByTestId("triage-panel");
    await panel.getByLabel("Fecha límite").evaluate((el) => {
      (el as HTMLInputElement).type = "text";
      (el as HTMLInputElement).value = "mañana";
    });
    await panel.getByRole("button", { name: "Guardar el triaje" }).click();
    await page.getByText("Revisa los campos marcados.").waitFor();
    expect(await page.locator("#triage-due-error").textContent()).toBeTruthy();
    await close();

    const other = await openPage(browser, { locale: "es-ES" });
    await other.page.context().addCookies(cookiesOf(carl));
    const response = await other.page.goto(`${server.url}/app/documents/${feedDocumentId}`);
    expect(response?.status()).toBe(404);
    const list = await other.page.goto(`${server.url}/app/triage`);
    expect(list?.status()).toBe(200);
    expect(await other.page.getByTestId("triage-row").count()).toBe(0);
    await other.close();
  }, 60_000);

  test.each([390, 1440])(
    "the new pages at %i px, light and dark",
    async (width) => {
      const { page, errors, close } = await openPage(browser, {
        locale: "es-ES",
        viewport: { width, height: 900 },
        colorScheme: "light",
      });
      await page.context().addCookies(cookiesOf(bea));
      for (const [name, pathName] of [
        ["home", "/app"],
        ["document", `/app/documents/${documentId}`],
        ["triage", "/app/triage"],
        ["obligations", "/app/obligations"],
      ] as const) {
        await page.goto(`${server.url}${pathName}`);
        await page.locator("h1").first().waitFor();
        for (const colorScheme of ["light", "dark"] as const) {
          await switchColorMode(page, colorScheme);
          // Nothing spills out of the viewport.
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `${name} overflows (${colorScheme})`).toBeLessThanOrEqual(0);
          const violations = await axeViolations(page);
          expect(violations, `${name} ${colorScheme}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
          const dir = process.env.TRIAGE_SCREENSHOTS;
          if (dir) {
            mkdirSync(dir, { recursive: true });
            await page.screenshot({ path: path.join(dir, `${name}-${width}-${colorScheme}.png`), fullPage: true });
          }
        }
      }
      expect(errors).toEqual([]);
      await close();
    },
    90_000,
  );
});
