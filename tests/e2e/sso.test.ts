/**
 * Enterprise sign-in in Chromium (issue 41): a person signs in through their organisation's OIDC
 * provider (oidc-provider on loopback) from the SSO sign-in page, by keyboard alone, at 390 and
 * 1440 px, in Spanish and English, and lands on the product's second factor (the IdP's MFA is
 * not trusted). The SSO sign-in page and the admin's settings page are axe-clean in light and
 * dark and usable by keyboard (the SAML form's "by hand" section opens with the keyboard).
 * Screenshots go to screenshots/sso/ to be looked at.
 */
import { mkdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { axeViolations } from "../support/axe.ts";
import { launchBrowser, openPage, switchColorMode } from "../support/browser.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { browse, startOidcIdp } from "../support/oidc-idp.ts";
import { type SignedIn, setupOwner } from "../support/platform-members.ts";
import { samlIdp } from "../support/saml-idp.ts";
import { projectRoot } from "../support/server.ts";

const shots = path.join(projectRoot, "screenshots", "sso");
let server: Awaited<ReturnType<typeof startInProcessServer>>;
let idp: Awaited<ReturnType<typeof startOidcIdp>>;
let browser: Browser;
let owner: SignedIn;
let metadataServer: http.Server | undefined;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startInProcessServer({ SSO_ALLOW_PRIVATE_IDP_URLS: "1" });
  const callback = `${server.url}/app/sso/oidc/callback`;
  idp = await startOidcIdp([{ clientId: "vigia", clientSecret: "secret-0123456789", redirectUri: callback }]);
  const auth = server.app.services.auth;
  owner = await setupOwner(auth, server.dataDir, { email: "ana@banco.example", organizationName: "Banco" });
  const id = await auth.createSsoProvider(
    owner.member,
    { kind: "oidc", name: "Entra ID", issuer: idp.issuer, clientId: "vigia", clientSecret: "secret-0123456789" },
    owner.meta(),
  );
  await auth.claimSsoDomain(owner.member, "banco.example", owner.meta());
  await auth.confirmSsoDomainByOwner(owner.member, "banco.example", owner.meta());
  await auth.claimSsoDomain(owner.member, "filial.banco.example", owner.meta());
  idp.state.user = { sub: "it", email: "it@banco.example", name: "IT", groups: [] };
  const begun = await auth.beginSso(id, { test: { userId: owner.member.userId } });
  const meta = owner.meta();
  meta.headers.set("cookie", `${meta.headers.get("cookie")}; ${begun.setCookies[0]!.split(";")[0]}`);
  await auth.finishOidc(await browse(begun.url, callback), meta);
  await auth.setSsoProviderEnabled(owner.member, id, true, owner.meta());
  // A SAML provider set up by metadata URL whose IdP then stops answering (decision 0163): the
  // settings page shows when the metadata was last read and why the daily re-read failed.
  const keycloak = samlIdp("https://idp.banco.example/realms/banco");
  let metadataUp = true;
  metadataServer = http.createServer((_req, res) => {
    if (metadataUp) res.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(keycloak.metadata);
    else res.writeHead(503).end();
  });
  const listening = metadataServer;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  await auth.createSsoProvider(
    owner.member,
    {
      kind: "saml",
      name: "Keycloak SAML",
      metadataUrl: `http://127.0.0.1:${(listening.address() as AddressInfo).port}/metadata`,
    },
    owner.meta(),
  );
  metadataUp = false;
  expect(await auth.refreshAllSamlMetadata()).toMatchObject({ failed: 1 });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await idp?.close();
  await server?.stop();
  await new Promise((resolve) => (metadataServer ? metadataServer.close(resolve) : resolve(undefined)));
});

async function expectAxeClean(page: Page, label: string) {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  expect(await axeViolations(page), `${label} light`).toEqual([]);
  await switchColorMode(page, "dark");
  expect(await axeViolations(page), `${label} dark`).toEqual([]);
  await switchColorMode(page, "light");
}

/** Tabs until the element matching `selector` has the focus (at most `limit` presses). */
async function tabTo(page: Page, selector: string, limit = 80) {
  for (let press = 0; press < limit; press++) {
    if (await page.evaluate((css) => document.activeElement?.matches(css) ?? false, selector)) return press;
    await page.keyboard.press("Tab");
  }
  throw new Error(`${selector} never took the focus`);
}

/** The page does not scroll sideways: nothing wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scroll).toBeLessThanOrEqual(client);
}

const people = [
  { locale: "es", width: 390, title: "Entrar con el proveedor de identidad de tu organización" },
  { locale: "en", width: 1440, title: "Sign in with your organisation's identity provider" },
  { locale: "en", width: 390, title: "Sign in with your organisation's identity provider" },
  { locale: "es", width: 1440, title: "Entrar con el proveedor de identidad de tu organización" },
] as const;

describe("SSO sign-in in Chromium", () => {
  for (const [index, person] of people.entries()) {
    test(`${person.locale} at ${person.width} px: keyboard only, from the work email to the IdP and back to the second factor`, async () => {
      const { page, errors, close } = await openPage(browser, {
        locale: person.locale === "es" ? "es-ES" : "en-GB",
        viewport: { width: person.width, height: 900 },
        colorScheme: "light",
      });
      try {
        await page.context().addCookies([{ name: "locale", value: person.locale, url: server.url }]);
        await page.goto(`${server.url}/app/sso`);
        await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(person.title);
        await expectNoSidewaysScroll(page);
        await expectAxeClean(page, `/app/sso ${person.locale} ${person.width}`);
        await page.screenshot({
          path: path.join(shots, `sso-sign-in-${person.locale}-${person.width}.png`),
          fullPage: true,
        });
        idp.state.user = {
          sub: `person-${index}`,
          email: `persona${index}@banco.example`,
          name: `Persona ${index}`,
          groups: [],
        };
        await tabTo(page, "input[name=email]");
        await page.keyboard.type(`persona${index}@banco.example`, { delay: 20 });
        await page.keyboard.press("Enter");
        await page.waitForURL(`${server.url}/app/mfa`, { timeout: 30_000 }).catch((error: Error) => {
          throw new Error(`${error.message}\nat ${page.url()}\n${errors.join("\n")}`);
        });
        await expect
          .poll(async () => (await page.getByRole("heading", { level: 1 }).textContent())?.toLowerCase())
          // A JIT account starts in the browser's language (its locale cookie here; decision 0163).
          .toContain(person.locale === "es" ? "segundo factor" : "second factor");
        await expectNoSidewaysScroll(page);
        await page.screenshot({
          path: path.join(shots, `sso-landed-${person.locale}-${person.width}.png`),
          fullPage: true,
        });
        const cookies = await page.context().cookies(server.url);
        expect(cookies.map((cookie) => cookie.name)).toEqual(
          expect.arrayContaining([expect.stringMatching(/session_token/)]),
        );
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }, 120_000);
  }

  for (const locale of ["es", "en"] as const) {
    test(`the admin's settings page (${locale}): axe-clean at 390 and 1440 px, light and dark; the SAML form by keyboard`, async () => {
      const { page, errors, close } = await openPage(browser, {
        locale: locale === "es" ? "es-ES" : "en-GB",
        viewport: { width: 1440, height: 900 },
        colorScheme: "light",
      });
      try {
        await page.context().addCookies([
          ...owner.cookie
            .split(/;\s*/)
            .filter(Boolean)
            .map((pair) => ({
              name: pair.slice(0, pair.indexOf("=")),
              value: pair.slice(pair.indexOf("=") + 1),
              url: server.url,
            })),
        ]);
        const switched = await page.request.post(`${server.url}/app/locale`, {
          form: { locale },
          headers: { origin: server.url },
          maxRedirects: 0,
        });
        expect(switched.status()).toBe(302);
        await page.goto(`${server.url}/app/admin/sso`);
        // The SAML provider read by URL: when, and the last re-read's failure, in words.
        const metadata = page.locator("[data-testid^=metadata-]").first();
        expect(await metadata.textContent()).toContain(
          locale === "es" ? "Metadatos leídos de http://127.0.0.1:" : "Metadata last read from http://127.0.0.1:",
        );
        expect(await metadata.textContent()).toContain(
          locale === "es" ? "La URL de metadatos no ha respondido" : "The metadata URL did not answer",
        );
        for (const width of [1440, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await expectNoSidewaysScroll(page);
          await expectAxeClean(page, `/app/admin/sso ${locale} ${width}`);
          await page.screenshot({ path: path.join(shots, `admin-sso-${locale}-${width}.png`), fullPage: true });
          await page
            .locator("article", { has: page.locator("[data-testid^=metadata-]") })
            .screenshot({ path: path.join(shots, `admin-sso-saml-metadata-${locale}-${width}.png`) });
        }
        // Keyboard: to the metadata URL field, then the "by hand" section opened with Enter.
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await tabTo(page, "#saml-metadata-url", 200);
        await tabTo(page, "details > summary");
        expect(await page.locator("#saml-sso").isVisible()).toBe(false);
        await page.keyboard.press("Enter");
        await expect.poll(() => page.locator("#saml-sso").isVisible()).toBe(true);
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.activeElement?.id)).toBe("saml-sso");
        // A visible focus ring on the field the keyboard is in.
        const outline = await page.evaluate(() => {
          const style = getComputedStyle(document.activeElement as Element);
          return `${style.outlineStyle} ${style.boxShadow}`;
        });
        expect(outline).not.toBe("none none");
        // A pasted document that is not metadata: the message says so, in the page's language.
        await page.fill("#saml-metadata-xml", "<html><body>no</body></html>");
        await page.fill("#saml-name", "Prueba");
        await page.locator("#saml-name").press("Enter");
        const alert = page.getByRole("alert");
        await expect
          .poll(() => alert.textContent())
          .toContain(
            locale === "es"
              ? "Los metadatos no son un documento SAML válido"
              : "The metadata is not a valid SAML document",
          );
        await page.screenshot({ path: path.join(shots, `admin-sso-refused-${locale}-390.png`), fullPage: false });
        expect(errors.filter((error) => !/status of 422/.test(error))).toEqual([]);
      } finally {
        await close();
      }
    }, 180_000);
  }
});
