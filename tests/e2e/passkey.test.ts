/**
 * Passkeys in Chromium with a virtual authenticator (DevTools protocol, WebAuthn domain): a member
 * adds one on the account page, then uses it as the second factor after the password. WebAuthn
 * refuses IP addresses as relying-party ids, so this server's SITE_URL is http://localhost:port.
 * Also: the library's own HTTP endpoints are not reachable around the sign-in policy.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openPage, type WatchedPage } from "../support/browser.ts";
import { freePort, type RunningServer, startServer } from "../support/server.ts";
import { totpFromUri } from "../support/totp.ts";

const password = "pasarela-azul-otoño-83";
let server: RunningServer;
let site: string;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  site = `http://localhost:${port}`;
  server = await startServer({ port, env: { SITE_URL: site } });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A platform authenticator that always verifies the user, as a laptop's fingerprint reader would. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function signInWithPassword(page: Page): Promise<void> {
  await page.goto(`${site}/app/login`);
  await page.getByLabel("Correo electrónico").fill("eva@example.com");
  await page.getByLabel("Contraseña", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Continuar" }).click();
  await page.getByRole("heading", { name: "Segundo factor" }).waitFor({ timeout: 20_000 });
}

describe("passkeys", () => {
  let owner: WatchedPage;

  test("a member adds a passkey on the account page and signs in with it as the second factor", async () => {
    owner = await openPage(browser, { locale: "es-ES", viewport: { width: 1280, height: 900 } });
    const { page } = owner;
    await addVirtualAuthenticator(page);
    await page.goto(readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim());
    await page.getByLabel("Nombre de la organización").fill("Org Llaves");
    await page.getByLabel("Tu nombre").fill("Eva");
    await page.getByLabel("Tu correo electrónico").fill("eva@example.com");
    await page.getByLabel("Contraseña (mínimo 12 caracteres)").fill(password);
    await page.getByRole("button", { name: "Crear organización" }).click();
    await page.waitForURL(/\/app\/mfa$/);
    const uri = (await page.getByTestId("otpauth-uri").textContent())?.trim() ?? "";
    await page.getByLabel("Código de la aplicación").fill(totpFromUri(uri));
    await page.getByRole("button", { name: "Activar" }).click();
    await page.waitForURL(/\/app$/);

    await page.goto(`${site}/app/account`);
    await expect(page.getByTestId("passkey-row").count()).resolves.toBe(0);
    await page.getByLabel("Nombre de la llave").fill("Portátil de Eva");
    await page.getByRole("button", { name: "Añadir una llave de acceso" }).click();
    await page.getByText("Llave de acceso añadida.").waitFor({ timeout: 20_000 });
    await page.getByTestId("passkey-row").filter({ hasText: "Portátil de Eva" }).waitFor({ timeout: 20_000 });

    // Sign out, then password + passkey.
    await page.locator("summary", { hasText: "Eva" }).click();
    await page.getByRole("button", { name: "Cerrar sesión" }).click();
    await page.waitForURL(/\/app\/login\?signedout=1$/);
    await signInWithPassword(page);
    await page.getByRole("button", { name: "Usar una llave de acceso" }).click();
    await page.waitForURL(/\/app$/, { timeout: 20_000 });
    await page.getByRole("heading", { name: "Hola, Eva" }).waitFor({ timeout: 20_000 });

    // The audit trail has the passkey's addition and the sign-in with it.
    await page.goto(`${site}/app/admin/audit?action=mfa.passkey_added`);
    await expect(page.getByTestId("audit-row").count()).resolves.toBe(1);
    await page.goto(`${site}/app/admin/audit?action=auth.sign_in`);
    await expect(page.getByTestId("audit-row").count()).resolves.toBe(1);
    expect(owner.errors).toEqual([]);
  }, 120_000);

  test("a passkey answer without a password step is refused; better-auth's own endpoints are not exposed", async () => {
    const verify = await fetch(`${server.url}/app/passkey/verify`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ response: { id: "x", rawId: "x", type: "public-key", response: {} } }),
    });
    expect(verify.status).toBe(401);
    expect(verify.headers.getSetCookie().some((line) => line.startsWith("vn.session_token="))).toBe(false);
    const challenge = await fetch(`${server.url}/app/passkey/challenge`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: "{}",
    });
    expect(challenge.status).toBe(401);
    // The library's sign-in would skip the lockout, the per-IP limit and the audit trail.
    const direct = await fetch(`${server.url}/app/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: "eva@example.com", password }),
    });
    expect(direct.ok).toBe(false);
    expect(direct.headers.getSetCookie()).toEqual([]);
  }, 60_000);

  test("the passkey is removed from the account page, and then no longer works", async () => {
    const { page } = owner;
    await page.goto(`${site}/app/account`);
    // The passkey's own button: the account page has other "Quitar" buttons (the calendar link).
    await page
      .getByTestId("passkey-row")
      .getByRole("button", { name: /Quitar/ })
      .click();
    await page.getByText("Llave de acceso quitada.").waitFor({ timeout: 20_000 });
    // The list is the loader's after the action; on a loaded machine the message and the list may
    // not show in the same frame, so wait for the list rather than read it once.
    await expect.poll(() => page.getByTestId("passkey-row").count(), { timeout: 15_000 }).toBe(0);
    await page.locator("summary", { hasText: "Eva" }).click();
    await page.getByRole("button", { name: "Cerrar sesión" }).click();
    await page.waitForURL(/\/app\/login\?signedout=1$/);
    await signInWithPassword(page);
    await page.getByRole("button", { name: "Usar una llave de acceso" }).click();
    await page.getByText("No se ha podido usar la llave de acceso").waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe("/app/login");
    await owner.close();
  }, 120_000);
});
