/**
 * Issue 39 in Chromium against the built app (in this process, PGlite), in Spanish and English at
 * 1440 and 390 px, by keyboard: a search → "Save as alert" → the new profile shows the last 30
 * days' preview and what does not carry over → saved → the profile is listed; then the same search
 * saved under a name and run again from its link. axe (WCAG 2.2 AA) finds nothing on the search,
 * the new profile, its Atom feed page and the saved searches pages; the feed's address, created by
 * keyboard, answers without a session. Screenshots go to SEARCH_SCREENSHOTS when it is set.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { madridDateDaysAgo } from "../../app/lib/madrid-date.ts";
import { insertStoredDocument } from "../support/alerts-fixtures.ts";
import { axeViolations } from "../support/axe.ts";
import { launchBrowser, openPage } from "../support/browser.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { type SignedIn, setupOwner } from "../support/platform-members.ts";

let server: Awaited<ReturnType<typeof startInProcessServer>>;
let browser: Browser;
let ana: SignedIn;
const shots = process.env.SEARCH_SCREENSHOTS;

const copy = {
  es: {
    saveAsAlert: "Guardar como alerta",
    preview: "Documentos de los últimos 30 días que este perfil habría encontrado",
    notes: "Lo que no pasa igual a la alerta",
    name: "Nombre del perfil",
    save: "Guardar perfil",
    saved: "Perfil guardado.",
    saveSearch: "Guardar esta búsqueda",
    searchName: "Nombre de la búsqueda",
    searchSaved: (name: string) => `Búsqueda «${name}» guardada.`,
    run: (name: string) => `Buscar «${name}»`,
    feed: "Feed Atom",
    createFeed: "Crear dirección del feed",
    feedAddress: "Dirección del feed",
  },
  en: {
    saveAsAlert: "Save as alert",
    preview: "Documents of the last 30 days this profile would have matched",
    notes: "What does not carry over as it is",
    name: "Profile name",
    save: "Save profile",
    saved: "Profile saved.",
    saveSearch: "Save this search",
    searchName: "Search name",
    searchSaved: (name: string) => `Search “${name}” saved.`,
    run: (name: string) => `Search “${name}”`,
    feed: "Atom feed",
    createFeed: "Create the feed address",
    feedAddress: "Feed address",
  },
} as const;

function cookiesOf(signedIn: SignedIn) {
  return signedIn.cookie
    .split(/;\s*/)
    .filter(Boolean)
    .map((pair) => {
      const index = pair.indexOf("=");
      return { name: pair.slice(0, index), value: pair.slice(index + 1), url: server.url };
    });
}

async function shoot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  server = await startInProcessServer();
  browser = await launchBrowser();
  ana = await setupOwner(server.app.services.auth, server.dataDir, { email: "ana@a.example", name: "Ana Ruiz" });
  const db = server.app.database;
  await insertStoredDocument(db, {
    title: "Real Decreto por el que se regulan las subvenciones para la digitalización",
    areas: ["grants"],
    publishedOn: madridDateDaysAgo(1),
  });
  await insertStoredDocument(db, {
    title: "Orden de bases de subvenciones agrarias",
    areas: ["grants"],
    relevance: "medium",
    publishedOn: madridDateDaysAgo(4),
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("search to alert and saved searches in the browser", () => {
  for (const locale of ["es", "en"] as const) {
    for (const width of [1440, 390]) {
      test(`${locale} at ${width} px: search → save as alert (preview shown) → profile saved; save and rerun a search`, async () => {
        const t = copy[locale];
        await server.app.database.rows(sql`update auth_user set locale = ${locale} where id = ${ana.member.userId}`);
        const { page, errors, close } = await openPage(browser, {
          locale: locale === "es" ? "es-ES" : "en-GB",
          viewport: { width, height: 900 },
        });
        await page.context().addCookies(cookiesOf(ana));
        await page.goto(`${server.url}/app/search?q=subvenciones&area=grants`);
        expect(await page.locator("html").getAttribute("lang")).toBe(locale);
        expect(await axeViolations(page)).toEqual([]);
        await shoot(page, `search-${locale}-${width}`);

        // By keyboard: the action's link, then Enter.
        await page.getByRole("link", { name: t.saveAsAlert }).focus();
        await page.keyboard.press("Enter");
        await page.waitForURL(/\/app\/profiles\/new\?/);
        await page.getByRole("heading", { name: t.preview }).waitFor();
        expect(await page.getByTestId("profile-preview").locator("li").count()).toBe(2);
        await expect.poll(() => page.getByText(t.notes).isVisible()).toBe(true);
        expect(await page.getByLabel(t.name).inputValue()).toBe("subvenciones");
        expect(await axeViolations(page)).toEqual([]);
        await shoot(page, `profile-from-search-${locale}-${width}`);
        const profileName = `Subvenciones ${locale} ${width}`;
        await page.getByLabel(t.name).fill(profileName);
        await page.getByRole("button", { name: t.save }).focus();
        await page.keyboard.press("Enter");
        await page.waitForURL(/\/app\/profiles\?done=saved/);
        await page.getByText(t.saved).waitFor();
        expect(await page.getByText(profileName).count()).toBeGreaterThan(0);
        const [stored] = await server.app.database.rows<{ areas: string[]; query: string }>(
          sql`select areas, query from alert_profiles where name = ${profileName}`,
        );
        expect(stored).toEqual({ areas: ["grants"], query: "subvenciones" });

        // Its Atom feed: the address shown once, served without a session, axe clean.
        await page.getByRole("link", { name: `${t.feed}: ${profileName}` }).focus();
        await page.keyboard.press("Enter");
        await page.waitForURL(/\/app\/profiles\/[0-9a-f-]{36}\/feed$/);
        await page.getByRole("button", { name: t.createFeed }).focus();
        await page.keyboard.press("Enter");
        const feedUrl = await page.getByLabel(t.feedAddress).inputValue();
        expect(feedUrl).toMatch(/\/feeds\/pfd_[A-Za-z0-9_-]{43}\.atom$/);
        const feed = await fetch(feedUrl);
        expect(feed.status).toBe(200);
        expect(feed.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
        expect(await axeViolations(page)).toEqual([]);
        await shoot(page, `profile-feed-${locale}-${width}`);

        // A saved search, by keyboard, then run again from its link.
        await page.goto(`${server.url}/app/search?q=subvenciones&area=grants`);
        await page.getByText(t.saveSearch).focus();
        await page.keyboard.press("Enter");
        const searchName = `Ayudas ${locale} ${width}`;
        await page.getByLabel(t.searchName).fill(searchName);
        await page.keyboard.press("Enter");
        await page.getByText(t.searchSaved(searchName)).waitFor();
        await shoot(page, `search-saved-${locale}-${width}`);
        await page.goto(`${server.url}/app/searches`);
        expect(await axeViolations(page)).toEqual([]);
        await shoot(page, `saved-searches-${locale}-${width}`);
        await page.getByRole("link", { name: t.run(searchName) }).focus();
        await page.keyboard.press("Enter");
        await page.waitForURL(/\/app\/search\?q=subvenciones&area=grants$/);
        expect(await page.getByTestId("result-count").textContent()).toMatch(/2/);
        expect(errors).toEqual([]);
        await close();
      }, 120_000);
    }
  }
});
