/**
 * Issue 20, defect 2: signing in with the keyboard alone, at a person's pace, once the page has
 * hydrated (the second step then arrives by client-side navigation). Each step starts clean, with
 * the focus on its first field: the email typed in the first step never shows up in the second
 * step's "Authenticator code", and Enter after the code submits it as an authenticator code.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openPage } from "../support/browser.ts";
import { httpPassword, inviteOverHttp, setupOwnerOverHttp } from "../support/http-session.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { totpFromUri } from "../support/totp.ts";

const email = "ana@example.com";
let server: RunningServer;
let browser: Browser;
let totpUri = "";
let owner: Awaited<ReturnType<typeof setupOwnerOverHttp>>;

beforeAll(async () => {
  server = await startServer({ waitUntilHealthy: false });
  // A loaded machine may take longer than startServer's own wait to start PGlite and migrate.
  const deadline = Date.now() + 100_000;
  while ((await fetch(`${server.url}/healthz`).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${server.output.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  owner = await setupOwnerOverHttp(server.url, server.dataDir, email);
  totpUri = owner.totpUri;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Resolves once React has hydrated the element (it keeps its props on the DOM node). */
async function waitForHydration(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(
    (css) => {
      const element = document.querySelector(css);
      return element !== null && Object.keys(element).some((key) => key.startsWith("__reactProps"));
    },
    selector,
    { timeout: 30_000 },
  );
}

/** The focused element's id, and the values of the second step's two code fields. */
function secondStepState(page: Page) {
  return page.evaluate(() => ({
    focused: document.activeElement?.id ?? null,
    totp: (document.getElementById("field-totp") as HTMLInputElement | null)?.value ?? null,
    recovery: (document.getElementById("field-recovery") as HTMLInputElement | null)?.value ?? null,
    emailFieldStillThere: document.getElementById("field-email") !== null,
  }));
}

/** What a person types: a key at a time, not pasted. */
const pace = { delay: 40 };

describe("sign-in with the keyboard alone, after hydration", () => {
  const cases = [
    {
      locale: "es-ES",
      secondTitle: "Segundo factor",
      lead: /aplicación de autenticación/,
      recoveryWord: /recuperación/i,
    },
    { locale: "en-GB", secondTitle: "Second factor", lead: /authenticator app/, recoveryWord: /recovery/i },
  ] as const;

  for (const [index, c] of cases.entries()) {
    test(`${c.locale}: each step starts clean with the focus on its first field`, async () => {
      const { page, errors, close } = await openPage(browser, {
        locale: c.locale,
        viewport: { width: 390, height: 844 },
      });
      try {
        await page.goto(`${server.url}/app/login`);
        await waitForHydration(page, "#field-email");
        // First step: the focus is already in the email field.
        expect(await page.evaluate(() => document.activeElement?.id)).toBe("field-email");
        await page.keyboard.type(email, pace);
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.activeElement?.id)).toBe("field-password");
        await page.keyboard.type(httpPassword, pace);
        await page.keyboard.press("Enter");

        // Second step, reached without a page load.
        await page.getByRole("heading", { name: c.secondTitle }).waitFor({ timeout: 30_000 });
        await waitForHydration(page, "#field-totp");
        // The focus moves on mount; wait for it, then show the whole state if it never came.
        await page
          .waitForFunction(() => document.activeElement?.id === "field-totp", undefined, { timeout: 5_000 })
          .catch(() => {});
        expect(await secondStepState(page)).toEqual({
          focused: "field-totp",
          totp: "",
          recovery: "",
          emailFieldStillThere: false,
        });
        // The text above the fields speaks of the authenticator app only: the recovery code has its own field.
        const lead = (await page.locator("main p.text-body-secondary").first().textContent()) ?? "";
        expect(lead).toMatch(c.lead);
        expect(lead).not.toMatch(c.recoveryWord);

        // Only the first case signs in: the code of one time step is accepted once.
        if (index > 0) return;
        await page.keyboard.type(totpFromUri(totpUri, 1), pace);
        await page.keyboard.press("Enter");
        await page.waitForURL(/\/app$/, { timeout: 30_000 });
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }, 120_000);
  }
});

/**
 * Issue 37, item 12: the keyboard sequence (email, Tab, password, Enter, code, Enter) without
 * waiting for the second step, at a person's pace and as fast as a script types. Each case signs
 * in a member of its own: a code's time step is accepted once per account, and enrolment has just
 * used the current one (hence the next step's code, which the window accepts).
 */
describe("sign-in with the keyboard alone, without waiting for the page", () => {
  const speeds = [
    { name: "as fast as a script types", delay: 0 },
    { name: "at a person's pace", delay: 80 },
  ];
  let members = 0;
  async function newMember() {
    members += 1;
    const address = `keys${members}@example.com`;
    return { address, ...(await inviteOverHttp(owner, server.url, server.dataDir, address)) };
  }

  for (const { name, delay } of speeds) {
    // Keys typed while the password was being checked went into the password field and were lost
    // with it: the code arrived short (422) or not at all.
    test(`${name}: the code typed before the second step has arrived still signs in`, async () => {
      const member = await newMember();
      const { page, errors, close } = await openPage(browser, { locale: "es-ES" });
      try {
        await page.goto(`${server.url}/app/login`);
        await waitForHydration(page, "#field-email");
        await page.keyboard.type(member.address, { delay });
        await page.keyboard.press("Tab");
        await page.keyboard.type(httpPassword, { delay });
        await page.keyboard.press("Enter");
        await page.keyboard.type(totpFromUri(member.totpUri, 1), { delay });
        await page.keyboard.press("Enter");
        await page.waitForURL(/\/app$/, { timeout: 30_000 });
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }, 120_000);

    // Before the page's script runs the forms post as HTML forms, and Enter pressed again posts the
    // code again: the browser keeps the second answer, which was a refusal (the first request had
    // used the challenge), so the person was back at the login page.
    test(`${name}: the code sent twice before the page's script runs signs in`, async () => {
      const member = await newMember();
      const { page, close } = await openPage(browser, { locale: "en-GB" });
      try {
        await page.route(/\/assets\/[^?]*\.js(\?.*)?$/, () => {});
        await page.goto(`${server.url}/app/login`, { waitUntil: "commit" });
        await page.locator("#field-email").waitFor();
        await page.keyboard.type(member.address, { delay });
        await page.keyboard.press("Tab");
        await page.keyboard.type(httpPassword, { delay });
        await page.keyboard.press("Enter");
        await page.locator("#field-totp").waitFor({ timeout: 30_000 });
        await page.keyboard.type(totpFromUri(member.totpUri, 1), { delay });
        const sent = page.waitForRequest((request) => /intent=totp/.test(request.postData() ?? ""));
        await page.keyboard.press("Enter");
        await sent;
        await page.keyboard.press("Enter");
        // The second post aborts the first one's navigation (as a person's second Enter does), and
        // waitForURL throws on an aborted navigation: watch where the page lands instead.
        await expect.poll(() => page.url(), { timeout: 30_000, interval: 100 }).toMatch(/\/app$/);
      } finally {
        await close();
      }
    }, 120_000);
  }
});
