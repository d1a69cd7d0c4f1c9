/**
 * Issue 40, seen in the screenshots at 390 px (docs/screenshots-app.md): tables that stayed
 * tables on a phone (the followed laws pushed "Última actualización" and "Dejar de seguir" off
 * screen; the document's provenance cut its URL one character a line), the owner's own member
 * card with an "Acciones" label over nothing (and an accepted invitation that "caduca"), a
 * relation to a followed law said "no está en la plataforma", and an empty triage queue said
 * "con estos filtros" without any filter.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { storeDocument } from "../../app/.server/documents/store.ts";
import { registerLaw } from "../../app/.server/law-texts/store.ts";
import { pollConsolidated } from "../../app/.server/sources/consolidated/poll.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { startReplayServer } from "../../app/.server/sources/replay.ts";
import { launchBrowser, visitorUserAgent } from "../support/browser.ts";
import { ingestRecorded } from "../support/documents-fixtures.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { inviteMember, type SignedIn, setupOwner } from "../support/platform-members.ts";

const lawId = "BOE-A-2015-10565";
let server: Awaited<ReturnType<typeof startInProcessServer>>;
let browser: Browser;
let owner: SignedIn;
let documentId = "";
let amendingId = "";

beforeAll(async () => {
  server = await startInProcessServer();
  browser = await launchBrowser();
  const database = server.app.database;
  owner = await setupOwner(server.app.services.auth, server.dataDir, { email: "ana@a.example", name: "Ana" });
  await inviteMember(server.app.services.auth, owner, { email: "eva@a.example", name: "Eva" });
  // A recorded document (with its provenance) and a followed law.
  documentId = (await ingestRecorded(database, ["2018-12-06"])).get("BOE-A-2018-16673") ?? "";
  await registerLaw(database, lawId, "boe");
  const replay = await startReplayServer();
  await pollConsolidated(
    {
      database,
      http: createSourceHttp({ userAgent: "phone-cards test", source: "boe", perSecond: 10_000, retries: 0 }),
      baseUrl: replay.url,
      log: { info() {}, warn() {} },
    },
    { only: [lawId] },
  );
  await replay.close();
  await database.rows(sql`insert into alert_profiles (id, organization_id, user_id, name, email_mode, law_id)
    values (${randomUUID()}::uuid, ${owner.member.organizationId}, ${owner.member.userId}, 'Ley 39/2015', 'off', ${lawId})`);
  // An act whose analysis says it amends the followed law.
  amendingId = (
    await storeDocument(database, {
      source: "boe",
      sourceId: "BOE-A-2022-10757",
      title: "Ley 11/2022, de 28 de junio, General de Telecomunicaciones.",
      language: "es",
      titles: { es: "Ley 11/2022, de 28 de junio, General de Telecomunicaciones." },
      publishedOn: "2022-06-29",
      effectiveDates: [],
      officialUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2022-10757",
      links: {},
      subjects: [],
      alerts: [],
      eurovoc: [],
      directoryCodes: [],
      notes: [],
      relations: [
        {
          type: "modifies",
          code: "270",
          direction: "earlier",
          targetSourceId: lawId,
          label: "MODIFICA el art. 9.2.c) de la Ley 39/2015, de 1 de octubre",
        },
        {
          type: "cites",
          code: "330",
          direction: "earlier",
          targetSourceId: "BOE-A-2014-6726",
          label: "CITA Ley 9/2014",
        },
      ],
      paragraphs: [{ kind: "paragraph", text: "Ley 11/2022." }],
      provenance: [],
    })
  ).id;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function phonePage(): Promise<Page> {
  const context = await browser.newContext({
    userAgent: visitorUserAgent(browser),
    viewport: { width: 390, height: 844 },
    reducedMotion: "reduce",
  });
  await context.addCookies(
    owner.cookie
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => {
        const index = pair.indexOf("=");
        return { name: pair.slice(0, index), value: pair.slice(index + 1), url: server.url };
      }),
  );
  const page = await context.newPage();
  const response = await page.request.post(`${server.url}/app/locale`, {
    form: { locale: "es" },
    headers: { origin: server.url },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  return page;
}

/** The visible card labels with nothing under them, and the tables that scroll sideways. */
function phoneProblems(page: Page) {
  return page.evaluate(() => ({
    emptyLabels: [...document.querySelectorAll<HTMLElement>(".table-cards [data-label]")]
      .filter((cell) => cell.offsetParent !== null && (cell.textContent ?? "").trim() === "")
      .map((cell) => cell.dataset.label),
    sideways: [...document.querySelectorAll<HTMLElement>("main .table-responsive")]
      .filter((box) => box.scrollWidth > box.clientWidth + 1)
      .map((box) => (box.querySelector("th")?.textContent ?? "").trim()),
  }));
}

describe("at 390 px, in Spanish", () => {
  test("members: the owner's own card has no 'Acciones' label over nothing", async () => {
    const page = await phonePage();
    await page.goto(`${server.url}/app/admin/members`);
    expect(await phoneProblems(page)).toEqual({ emptyLabels: [], sideways: [] });
    // The member's card keeps its actions under their label.
    expect(await page.locator('td[data-label="Acciones"]').count()).toBe(1);
    // Eva's invitation was accepted: it no longer "expires".
    const invitation = page.getByTestId("invitation-row");
    expect(await invitation.textContent()).toContain("Aceptada");
    expect(await invitation.textContent()).not.toContain("Caduca");
    await page.context().close();
  }, 60_000);

  test("followed laws: one card per law, the unfollow button on screen", async () => {
    const page = await phonePage();
    await page.goto(`${server.url}/app/laws`);
    expect(await phoneProblems(page)).toEqual({ emptyLabels: [], sideways: [] });
    const unfollow = await page.getByRole("button", { name: /^Dejar de seguir/ }).boundingBox();
    expect(unfollow?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((unfollow?.x ?? 999) + (unfollow?.width ?? 999)).toBeLessThanOrEqual(390);
    await page.context().close();
  }, 60_000);

  test("a document: its provenance as cards, its URL on whole lines; a relation to a followed law leads to the law", async () => {
    const page = await phonePage();
    await page.goto(`${server.url}/app/documents/${documentId}`);
    expect(await phoneProblems(page)).toEqual({ emptyLabels: [], sideways: [] });
    const url = page.getByTestId("provenance-row").first().locator("td").first();
    expect((await url.boundingBox())?.width ?? 0).toBeGreaterThan(250);
    await page.goto(`${server.url}/app/documents/${amendingId}`);
    const relations = page.getByTestId("relations");
    expect(await relations.locator(`a[href="/app/laws/${lawId}"]`).count()).toBe(1);
    expect(await relations.textContent()).toContain("texto consolidado");
    // A law the organisation does not reach is still "not on the platform".
    expect(await relations.textContent()).toContain("BOE-A-2014-6726 (no está en la plataforma)");
    expect(await page.getByTestId("provenance-none").count()).toBe(1);
    await page.context().close();
  }, 60_000);

  test("an empty triage queue says so; a filter that finds nothing says it is the filter", async () => {
    const page = await phonePage();
    await page.goto(`${server.url}/app/triage`);
    expect(await page.getByTestId("triage-empty").textContent()).toContain("Todavía no hay documentos en triaje");
    await page.goto(`${server.url}/app/triage?overdue=1`);
    expect(await page.getByTestId("triage-empty").textContent()).toBe("No hay documentos con estos filtros.");
    await page.context().close();
  }, 60_000);
});
