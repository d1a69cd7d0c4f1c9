/**
 * Every /app page on every screen (issue 40; issue 37, item 1), in one browser against one
 * in-process server: signed out, as an owner and as a member, in Spanish and English, at 320,
 * 390, 768 and 1440 px, light and dark. On each page and width: nothing wider than the screen, no
 * control under another element (for each visible button, link and field, the element at its
 * centre, once scrolled into view, is itself or inside it), and axe (WCAG A/AA and best practice)
 * clean. The header's menu is used by keyboard; a menu chosen from closes, so the next page's
 * buttons take a real click (no force) at 1280×900 and 390×844.
 *
 * One page per visitor, loaded once per path, then measured at each width by resizing the
 * viewport, in light or dark by switching data-bs-theme (as the colour toggle does). The layout
 * and axe are checked at every width, the colour mode alternating from one width to the next
 * (320 light, 390 dark, 768 light, 1440 dark) and the other way round in the other language:
 * every page is audited at each of the four widths in both modes, once per language and mode,
 * rather than in all sixteen combinations per language (CI's time).
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import axe from "axe-core";
import { sql } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerLaw } from "../../app/.server/law-texts/store.ts";
import { pollConsolidated } from "../../app/.server/sources/consolidated/poll.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { startReplayServer } from "../../app/.server/sources/replay.ts";
import { launchBrowser, switchColorMode, visitorUserAgent } from "../support/browser.ts";
import { setUpEvidenceStory } from "../support/evidence-fixtures.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { acceptOwnerInvitation, inviteMember, type SignedIn, setupOwner } from "../support/platform-members.ts";

const widths = [320, 390, 768, 1440] as const;
const lawId = "BOE-A-2015-10565";
let server: Awaited<ReturnType<typeof startInProcessServer>>;
let browser: Browser;
let owner: SignedIn;
let member: SignedIn;
/** The owner of a second organisation (issue 37's visitor). */
let secondOwner: SignedIn;
let documentId = "";
/** A group profile of the story (its edit page and its feed page). */
let groupProfileId = "";
/** An obligation anchored to article 9 of the law (its review page). */
let lawObligationId = "";
/** Seconds each part took (reported by the last test). */
const timings: Record<string, number> = {};

beforeAll(async () => {
  const started = performance.now();
  server = await startInProcessServer();
  browser = await launchBrowser();
  const auth = server.app.services.auth;
  const database = server.app.database;
  owner = await setupOwner(auth, server.dataDir, {
    email: "ana@a.example",
    name: "Ana Ruiz",
    organizationName: "Org A",
  });
  member = await inviteMember(auth, owner, { email: "eva@a.example", name: "Eva Gil", locale: "en" });
  // A law with its versions (read through the replay), a triaged document with obligations,
  // notes, deliveries and audit events: no page is shown empty only.
  await registerLaw(database, lawId, "boe");
  const replay = await startReplayServer();
  await pollConsolidated(
    {
      database,
      http: createSourceHttp({ userAgent: "app-pages test", source: "boe", perSecond: 10_000, retries: 0 }),
      baseUrl: replay.url,
      log: { info() {}, warn() {} },
    },
    { only: [lawId] },
  );
  await replay.close();
  documentId = (await setUpEvidenceStory(database, new Date(), owner.member)).boeDocumentId;
  // The story's audit events are chained by this process's copy of the audit code, under another
  // head secret than the server's: without the head, the server continues from the last event.
  await database.rows(sql`delete from audit_heads where organization_id = ${owner.member.organizationId}`);
  // The organisation reaches the law once one of its members follows it (decision 0124): the member does.
  await database.rows(sql`insert into alert_profiles (id, organization_id, user_id, name, email_mode, law_id)
    values (${randomUUID()}::uuid, ${member.member.organizationId}, ${member.member.userId}, 'Ley 39/2015', 'off', ${lawId})`);
  groupProfileId =
    (
      await database.rows<{ id: string }>(
        sql`select id::text as id from alert_profiles where organization_id = ${owner.member.organizationId} and group_id is not null limit 1`,
      )
    )[0]?.id ?? "";
  // An obligation anchored to article 9, recorded as a person does (the form's POST).
  const recorded = await fetch(`${server.url}/app/laws/${lawId}/obligations/new`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: owner.cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      block: "a9",
      version: "BOE-A-2019-15790",
      title: "Identificar a los interesados",
      description: "",
      owner: "",
      dueOn: "",
      reference: "",
    }),
  });
  lawObligationId = new URL(recorded.headers.get("location") ?? "/", server.url).searchParams.get("recorded") ?? "";
  const other = await auth.createOrganizationWithOwnerInvitation({
    name: "Org B",
    adminEmail: "carl@b.example",
    locale: "es",
  });
  secondOwner = await acceptOwnerInvitation(auth, other.url, { email: "carl@b.example", name: "Carl Vidal" });
  timings.setup = (performance.now() - started) / 1000;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (Object.keys(timings).length > 0) console.info(`app-pages timings (s): ${JSON.stringify(timings)}`);
});

function cookiesOf(signedIn: SignedIn) {
  return signedIn.cookie
    .split(/;\s*/)
    .filter(Boolean)
    .map((pair) => {
      const index = pair.indexOf("=");
      return { name: pair.slice(0, index), value: pair.slice(index + 1), url: server.url };
    });
}

async function contextFor(signedIn: SignedIn | null, viewport = { width: 1440, height: 900 }): Promise<BrowserContext> {
  const context = await browser.newContext({
    userAgent: visitorUserAgent(browser),
    viewport,
    colorScheme: "light",
    reducedMotion: "reduce",
  });
  if (signedIn) await context.addCookies(cookiesOf(signedIn));
  return context;
}

/** The account's language, as the header's switch stores it. */
async function switchLanguage(page: Page, locale: "es" | "en") {
  const response = await page.request.post(`${server.url}/app/locale`, {
    form: { locale },
    headers: { origin: server.url },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
}

/** Page errors and console errors, by path. */
function watch(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

interface Problem {
  what: string;
  detail: unknown;
}

/**
 * The page's width, and every visible control whose centre (scrolled into view) is another
 * element's: a header, a menu or a sticky box lying over it.
 */
async function layoutProblems(page: Page, width: number): Promise<Problem[]> {
  return page.evaluate((limit) => {
    const problems: { what: string; detail: unknown }[] = [];
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth > limit) {
      // The outermost elements that reach past the edge (their parent does not).
      const past = (element: Element | null) => (element?.getBoundingClientRect().right ?? 0) > limit + 0.5;
      const culprits = [...document.querySelectorAll("body *")]
        .filter((element) => past(element) && !past(element.parentElement))
        .slice(0, 5)
        .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`);
      problems.push({ what: "wider than the screen", detail: { scrollWidth, culprits } });
    }
    // On a phone (tables as cards): a label with nothing under it, a table pushed sideways.
    if (limit < 768) {
      const emptyLabels = [...document.querySelectorAll<HTMLElement>(".table-cards [data-label]")]
        .filter(
          (cell) =>
            cell.offsetParent !== null &&
            (cell.textContent ?? "").trim() === "" &&
            !cell.querySelector("input, select, button, a"),
        )
        .map((cell) => cell.dataset.label);
      if (emptyLabels.length > 0) problems.push({ what: "label without a value", detail: emptyLabels.slice(0, 5) });
      const sideways = [...document.querySelectorAll<HTMLElement>("main .table-responsive")]
        // (a law's own tables, in its text or its comparison, keep their columns and scroll)
        .filter((box) => !box.closest(".law-text, .law-diff") && box.offsetParent !== null)
        .filter((box) => box.scrollWidth > box.clientWidth + 1)
        .map((box) => (box.querySelector("th")?.textContent ?? "").trim().slice(0, 40));
      if (sideways.length > 0) problems.push({ what: "a table scrolls sideways", detail: sideways });
    }
    const describe = (element: Element) => {
      const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}.${String(element.className).slice(0, 40)} "${text}"`;
    };
    const controls = document.querySelectorAll<HTMLElement>(
      "main a[href], main button, main input:not([type=hidden]), main select, main textarea, main summary, header a[href], header button, header summary",
    );
    const covered: string[] = [];
    for (const control of controls) {
      if (control.closest(".visually-hidden, .visually-hidden-focusable")) continue;
      if (control.closest("details:not([open])") && control.tagName !== "SUMMARY") continue;
      const style = getComputedStyle(control);
      if (style.visibility === "hidden" || style.display === "none") continue;
      // A styled checkbox or radio is drawn by its own box; others must have a size to be clicked.
      const box = control.getBoundingClientRect();
      if (box.width < 2 || box.height < 2) continue;
      control.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      const rect = control.getBoundingClientRect();
      // Several lines (a wrapped link): its first line's box, where a person would aim.
      const first = control.getClientRects()[0] ?? rect;
      const x = first.left + first.width / 2;
      const y = first.top + first.height / 2;
      if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit === control || control.contains(hit)) continue;
      // A label over its own field, or a field's label in front of it, is the same control.
      if (hit instanceof HTMLLabelElement && hit.control === control) continue;
      covered.push(`${describe(control)} under ${describe(hit)}`);
    }
    window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    if (covered.length > 0) problems.push({ what: "covered", detail: covered.slice(0, 8) });
    return problems;
  }, width);
}

async function axeViolations(page: Page) {
  const loaded = await page.evaluate(() => "axe" in window);
  // The CSP allows no foreign inline script: evaluate axe's source instead of adding a <script>.
  if (!loaded) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return result.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.map(String)) }));
  });
}

/**
 * Loads each path once and checks it at each width (the viewport resized): the layout and axe at
 * every width, the colour mode alternating from `first` (320 and 768 px) to the other (390 and
 * 1440 px); the other language is called with the other `first`, so every page is audited in both
 * modes at every width.
 */
async function checkPages(page: Page, paths: readonly string[], first: "light" | "dark") {
  const found: Record<string, unknown> = {};
  const errors = watch(page);
  const other = first === "light" ? "dark" : "light";
  const audits: Record<(typeof widths)[number], "light" | "dark"> = { 320: first, 390: other, 768: first, 1440: other };
  for (const pathname of paths) {
    const response = await page.goto(`${server.url}${pathname}`);
    // A page may answer 404 (an invitation that does not exist) but never fail.
    expect(response?.status(), pathname).toBeLessThan(500);
    await page.waitForLoadState("load");
    for (const width of widths) {
      await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
      const scheme = audits[width];
      await switchColorMode(page, scheme);
      const problems = await layoutProblems(page, width);
      if (problems.length > 0) found[`${pathname} ${width} ${scheme}`] = problems;
      const violations = await axeViolations(page);
      if (violations.length > 0) found[`${pathname} ${width} ${scheme} axe`] = violations;
    }
  }
  // The browser reports a page that answered 404 (an invitation that does not exist) as a console error.
  expect(errors.filter((error) => !/status of 404/.test(error))).toEqual([]);
  return found;
}

/** The pages a signed-in visitor reaches: the header's links, the account, and pages behind them. */
async function pagesOf(page: Page, role: "owner" | "member") {
  await page.goto(`${server.url}/app`);
  const linked = await page
    .locator("header a[href^='/app']")
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
  return [
    ...new Set([
      "/app",
      ...linked,
      "/app/account",
      "/app/account/calendar",
      "/app/profiles/new",
      "/app/search?q=incidentes",
      `/app/documents/${documentId}`,
      `/app/laws/${lawId}`,
      `/app/laws/${lawId}/compare?block=a9&from=BOE-A-2015-10565&to=BOE-A-2019-15790`,
      `/app/laws/${lawId}/compare?block=a9&from=BOE-A-2015-10565&to=BOE-A-2019-15790&view=side`,
      // Issue 39's pages: saved searches, the catalogue, an obligation on an article and its review.
      "/app/searches",
      "/app/laws/catalogue?q=procedimiento",
      `/app/laws/${lawId}/obligations/new?block=a9&version=BOE-A-2019-15790`,
      `/app/obligations/${lawObligationId}/review`,
      "/app/obligations?review=1",
      ...(role === "owner"
        ? [
            `/app/evidence?document=${documentId}`,
            `/app/profiles/${groupProfileId}`,
            `/app/profiles/${groupProfileId}/feed`,
          ]
        : []),
    ]),
  ];
}

describe("every /app page at 320, 390, 768 and 1440 px, light and dark, es and en", () => {
  test("signed out: sign-in, reset and invitation pages", async () => {
    const started = performance.now();
    const context = await contextFor(null);
    const page = await context.newPage();
    const paths = ["/app/login", "/app/reset", "/app/reset/not-a-token", "/app/invite/not-a-token", "/app/sso"];
    for (const [locale, first] of [
      ["es", "light"],
      ["en", "dark"],
    ] as const) {
      await context.addCookies([{ name: "locale", value: locale, url: server.url }]);
      expect(await checkPages(page, paths, first), locale).toEqual({});
    }
    await context.close();
    timings.signedOut = (performance.now() - started) / 1000;
  }, 300_000);

  for (const role of ["owner", "member"] as const) {
    test(`as the organisation's ${role}`, async () => {
      const started = performance.now();
      const signedIn = role === "owner" ? owner : member;
      const context = await contextFor(signedIn);
      const page = await context.newPage();
      const paths = await pagesOf(page, role);
      expect(lawObligationId).not.toBe("");
      if (role === "owner") {
        expect(paths).toEqual(
          expect.arrayContaining([
            "/app/admin/tokens",
            "/app/admin/audit",
            "/app/admin/webhooks",
            "/app/admin/sso",
            "/app/admin/corrections",
            "/app/admin/sources",
            "/app/admin/members",
          ]),
        );
      } else expect(paths.some((p) => p.startsWith("/app/admin"))).toBe(false);
      for (const [locale, first] of [
        ["es", "light"],
        ["en", "dark"],
      ] as const) {
        await switchLanguage(page, locale);
        expect(await checkPages(page, paths, first), `${role} ${locale}`).toEqual({});
      }
      await context.close();
      timings[role] = (performance.now() - started) / 1000;
    }, 900_000);
  }
});

describe("the header's menu", () => {
  test("below 992 px one button opens it; keyboard: Enter opens, an entry navigates and closes it, Escape closes", async () => {
    const context = await contextFor(owner, { width: 390, height: 844 });
    const page = await context.newPage();
    await switchLanguage(page, "es");
    await page.goto(`${server.url}/app`);
    const toggle = page.getByRole("button", { name: "Menú" });
    // Folded: the entries are not shown, so the page starts right under the header.
    expect(await page.getByRole("link", { name: "Buscar" }).isVisible()).toBe(false);
    const header = await page.locator("header").boundingBox();
    expect(header?.height ?? 999).toBeLessThan(100);
    await toggle.focus();
    await page.keyboard.press("Enter");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Inicio");
    await page.keyboard.press("Escape");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Menú");
    // Choosing an entry: the next page shows with the menu folded.
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: "Buscar" }).press("Enter");
    await page.waitForURL(/\/app\/search$/);
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByRole("link", { name: "Buscar" }).isVisible()).toBe(false);
    // The Administration disclosure inside it: Escape closes it first, then the menu.
    await toggle.click();
    const admin = page.locator(".app-admin-menu");
    await admin.locator("summary").click();
    expect(await admin.getAttribute("open")).not.toBeNull();
    await page.keyboard.press("Escape");
    expect(await admin.getAttribute("open")).toBeNull();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await context.close();
  }, 60_000);

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    for (const [locale, entry, button] of [
      ["es", "Tokens de API", "Crear token"],
      ["en", "API tokens", "Create token"],
    ] as const) {
      test(`issue 37: at ${viewport.width}×${viewport.height} in ${locale}, "${button}" takes a real click after the menu led there`, async () => {
        const context = await contextFor(secondOwner, viewport);
        const page = await context.newPage();
        await switchLanguage(page, locale);
        await page.goto(`${server.url}/app`);
        await page.waitForLoadState("networkidle");
        const toggle = page.locator("header .navbar-toggler");
        if (await toggle.isVisible()) await toggle.click();
        await page.locator(".app-admin-menu summary").click();
        await page.getByRole("link", { name: entry }).click();
        await page.waitForURL(/\/app\/admin\/tokens$/);
        await page.locator("#token-name").fill(`Token ${viewport.width} ${locale}`);
        // A real click: Playwright refuses when another element would receive it.
        await page.getByRole("button", { name: button }).click({ timeout: 5000 });
        await page.getByTestId("new-token").waitFor();
        await context.close();
      }, 60_000);
    }
  }
});

describe("follows, alerts and counts in words", () => {
  test("a law followed from its page: 'sigues toda la ley', the profiles page shows the follow as a follow", async () => {
    const context = await contextFor(owner, { width: 1440, height: 900 });
    const page = await context.newPage();
    await switchLanguage(page, "es");
    // No alert yet but a group profile of the story: the empty inbox does not ask for a first profile.
    await page.goto(`${server.url}/app/alerts`);
    expect(await page.locator("main").textContent()).toContain("tus perfiles no han encontrado nada nuevo");
    await page.goto(`${server.url}/app/laws/${lawId}`);
    // Wide screen: the index is open beside the text, and stays in view as one reads.
    const side = page.locator(".law-side");
    // (opened once the page is hydrated: slow on a loaded machine)
    await expect.poll(() => page.locator(".law-side-details").getAttribute("open"), { timeout: 30_000 }).not.toBeNull();
    await page.evaluate(() => window.scrollTo({ top: 6000, behavior: "instant" }));
    const box = await side.boundingBox();
    expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect(box?.y ?? 999).toBeLessThan(50);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    // A block without a heading is named in words, never "[preambulo]".
    expect(await page.locator(".law-text").textContent()).not.toMatch(/\[[a-z_]+\]/);
    await page.getByRole("button", { name: "Seguir", exact: true }).click();
    await expect
      .poll(() => page.locator(".alert-success").textContent(), { timeout: 30_000 })
      .toContain("Listo: sigues toda la ley.");
    await expect.poll(() => page.getByRole("button", { name: "Dejar de seguir" }).count(), { timeout: 30_000 }).toBe(1);
    await page.goto(`${server.url}/app/profiles`);
    const follow = page.getByTestId("profile-follow");
    expect(await follow.textContent()).toBe(`Sigue: ${lawId}, la ley entera`);
    // The follow's card names no filters (a group profile without filters still reads "Cualquier documento").
    const card = page.getByTestId("profile-item").filter({ has: follow });
    expect(await card.textContent()).not.toContain("Cualquier documento");
    expect(await card.getByRole("link", { name: "Editar" }).count()).toBe(0);
    await context.close();
  }, 60_000);

  test("an empty inbox asks for a first profile only when there is none; the law page at 390 px starts with the text", async () => {
    // The second organisation's owner has no profile: asked to create one.
    const first = await contextFor(secondOwner, { width: 390, height: 844 });
    const firstPage = await first.newPage();
    await switchLanguage(firstPage, "en");
    await firstPage.goto(`${server.url}/app/alerts`);
    expect(await firstPage.locator("main").textContent()).toContain("Create an alert profile");
    await first.close();
    // The member follows the law (a profile): told that the profiles found nothing new yet.
    const context = await contextFor(member, { width: 390, height: 844 });
    const page = await context.newPage();
    await switchLanguage(page, "en");
    await page.goto(`${server.url}/app/alerts`);
    expect(await page.locator("main").textContent()).toContain(
      "No alerts yet: your profiles have not found anything new.",
    );
    await page.goto(`${server.url}/app/laws/${lawId}`);
    await page.waitForLoadState("networkidle");
    const details = page.locator(".law-side-details");
    expect(await details.getAttribute("open")).toBeNull();
    const height = await page.locator(".law-side").evaluate((element) => element.getBoundingClientRect().height);
    expect(height).toBeLessThan(150);
    await details.locator("summary").click();
    expect(await page.locator(".law-toc li").first().isVisible()).toBe(true);
    await context.close();
  }, 60_000);
});
