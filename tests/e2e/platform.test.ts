/**
 * The platform in Chromium against the built server, with a real SMTP peer: first-run setup →
 * MFA enrolment (code computed from the page's otpauth:// URI) → home (Spanish); invitation →
 * mail → accept → MFA → home (English); member refused admin pages; sign-out; sign-in with TOTP,
 * with a wrong code (refused, audited), with a recovery code (then that code fails); ending
 * another session; the lockout; cookies, cross-site POST and no-store.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, openPage } from "../support/browser.ts";
import { browserHeaders, htmlProblems } from "../support/html-validator.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import { totpFromUri } from "../support/totp.ts";

const password = "tortuga-verde-lunes-27";
let server: RunningServer;
let sink: SmtpSink;
let browser: Browser;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer({ env: { LOG_LEVEL: "info", SMTP_URL: sink.url }, waitUntilHealthy: false });
  // A loaded machine may take longer than startServer's own wait to start PGlite and migrate.
  const deadline = Date.now() + 100_000;
  while ((await fetch(`${server.url}/healthz`).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${server.output.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.stop();
});

/** Quoted-printable soft breaks and escapes undone, enough to find a link in a raw message. */
function unquote(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

async function waitForMail(to: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = sink.messages.find((message) => message.to.includes(to));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to}`);
}

async function enrol(
  page: Page,
  codeLabel: string,
  submit: string,
  keep?: { download: string; copy: string; copied: string },
): Promise<{ uri: string; codes: string[] }> {
  const uri = (await page.getByTestId("otpauth-uri").textContent())?.trim() ?? "";
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  const codes = (await page.getByTestId("recovery-codes").locator("li").allTextContents()).map((code) => code.trim());
  expect(codes).toHaveLength(10);
  if (keep) {
    // Kept as a person would (issue 40): the text file downloaded holds every code, one per line…
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: keep.download }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.txt$/);
    const file = readFileSync((await download.path()) ?? "", "utf8");
    expect(file.split("\n").filter((line) => codes.includes(line.trim()))).toHaveLength(10);
    // …and the copy button puts the same codes on the clipboard, its outcome announced.
    await page
      .context()
      .grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(page.url()).origin });
    await page.getByRole("button", { name: keep.copy }).click();
    await page.getByRole("status").filter({ hasText: keep.copied }).waitFor();
    const pasted = await page.evaluate(() => navigator.clipboard.readText());
    expect(pasted.split("\n").map((line) => line.trim())).toEqual(codes);
  }
  await page.getByLabel(codeLabel).fill(totpFromUri(uri));
  await page.getByRole("button", { name: submit }).click();
  await page.waitForURL(/\/app$/);
  return { uri, codes };
}

async function signIn(
  page: Page,
  email: string,
  labels = { email: "Correo electrónico", password: "Contraseña", submit: "Continuar" },
) {
  await page.goto(`${server.url}/app/login`);
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: labels.submit }).click();
  await page.waitForLoadState("load");
}

describe("platform in the browser", () => {
  let ownerUri = "";
  let recoveryCodes: string[] = [];

  test("first run: the setup link is written (the log points to it, never holds it); setup → MFA enrolment → home (es)", async () => {
    const setupUrl = readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim();
    expect(server.output.some((line) => line.includes("DATA_DIR/setup-url.txt"))).toBe(true);
    expect(server.output.some((line) => line.includes(setupUrl.split("/").at(-1) ?? "?"))).toBe(false);
    const { page, errors, close } = await openPage(browser, {
      locale: "es-ES",
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(setupUrl);
    await page.getByLabel("Nombre de la organización").fill("Org Demo");
    await page.getByLabel("Tu nombre").fill("Ana");
    await page.getByLabel("Tu correo electrónico").fill("ana@example.com");
    await page.getByLabel("Contraseña (mínimo 12 caracteres)").fill("password1234");
    await page.getByRole("button", { name: "Crear organización" }).click();
    await page.getByText("Esa contraseña es demasiado común").waitFor({ timeout: 20_000 });
    await page.getByLabel("Contraseña (mínimo 12 caracteres)").fill(password);
    await page.getByRole("button", { name: "Crear organización" }).click();
    await page.waitForURL(/\/app\/mfa$/);
    // No other page before the second factor.
    await page.goto(`${server.url}/app/admin/members`);
    expect(new URL(page.url()).pathname).toBe("/app/mfa");
    const enrolled = await enrol(page, "Código de la aplicación", "Activar", {
      download: "Descargar como archivo de texto",
      copy: "Copiar los códigos",
      copied: "Códigos copiados.",
    });
    ownerUri = enrolled.uri;
    recoveryCodes = enrolled.codes;
    await page.getByRole("heading", { name: "Hola, Ana" }).waitFor({ timeout: 20_000 });
    await page.getByText("Todavía no hay documentos").waitFor({ timeout: 20_000 });
    // The setup link works once.
    const again = await fetch(setupUrl);
    expect(again.status).toBe(404);
    // The refused common password was a 422 answer; nothing else went wrong.
    expect(errors.filter((line) => !/status of 422/.test(line))).toEqual([]);
    await close();
  }, 120_000);

  test("invite → mail → accept → MFA → home (en); a member gets 403 on admin pages", async () => {
    const owner = await openPage(browser, { locale: "es-ES", viewport: { width: 1280, height: 900 } });
    await signIn(owner.page, "ana@example.com");
    await owner.page.getByLabel("Código de la aplicación").fill(totpFromUri(ownerUri, 1));
    await owner.page.getByRole("button", { name: "Verificar" }).click();
    await owner.page.waitForURL(/\/app$/);
    await owner.page.goto(`${server.url}/app/admin/members`);
    await owner.page.getByLabel("Correo de la persona invitada").fill("bob@example.com");
    await owner.page.getByLabel("Idioma de la invitación").selectOption("en");
    await owner.page.getByRole("button", { name: "Enviar invitación" }).click();
    await owner.page.getByText("Invitación enviada a bob@example.com").waitFor({ timeout: 20_000 });
    const mail = await waitForMail("bob@example.com");
    expect(mail.headers.subject).toContain("Invitation_to_Org_Demo");
    expect(unquote(mail.raw)).toContain("invites you to Org Demo");
    const link = /http:\/\/127\.0\.0\.1:\d+\/app\/invite\/[\w-]+/.exec(unquote(mail.raw))?.[0];
    expect(link).toBeDefined();

    const bob = await openPage(browser, { locale: "en-GB", viewport: { width: 390, height: 844 } });
    await bob.page.goto(link!);
    await bob.page.getByLabel("Your name").fill("Bob");
    await bob.page.getByLabel("Password (at least 12 characters)").fill(password);
    await bob.page.getByRole("button", { name: "Accept and continue" }).click();
    await bob.page.waitForURL(/\/app\/mfa$/);
    await enrol(bob.page, "Authenticator code", "Turn on");
    await bob.page.getByRole("heading", { name: "Hello, Bob" }).waitFor({ timeout: 20_000 });
    // The page's language is Bob's, not the site's default.
    expect(await bob.page.evaluate(() => document.documentElement.lang)).toBe("en");
    for (const admin of ["members", "groups", "tokens", "audit"]) {
      const response = await bob.page.goto(`${server.url}/app/admin/${admin}`);
      expect(response?.status(), admin).toBe(403);
    }
    expect(bob.errors.filter((line) => !line.includes("403"))).toEqual([]);
    await bob.close();
    await owner.close();
  }, 120_000);

  test("sign-out; a wrong code is refused and audited; a recovery code works once; ending another session", async () => {
    const a = await openPage(browser, { locale: "es-ES", viewport: { width: 1280, height: 900 } });
    await signIn(a.page, "ana@example.com");
    await a.page.getByLabel("Código de la aplicación").fill("123456");
    await a.page.getByRole("button", { name: "Verificar" }).click();
    await a.page.getByText("El código no es válido").waitFor({ timeout: 20_000 });
    await a.page.getByLabel("Código de recuperación").fill(recoveryCodes[0]!);
    await a.page.getByRole("button", { name: "Usar código de recuperación" }).click();
    await a.page.waitForURL(/\/app$/);

    // Sign out through the user menu; the same recovery code then fails.
    await a.page.locator("summary", { hasText: "Ana" }).click();
    await a.page.getByRole("button", { name: "Cerrar sesión" }).click();
    await a.page.waitForURL(/\/app\/login\?signedout=1$/);
    await signIn(a.page, "ana@example.com");
    await a.page.getByLabel("Código de recuperación").fill(recoveryCodes[0]!);
    await a.page.getByRole("button", { name: "Usar código de recuperación" }).click();
    await a.page.getByText("El código no es válido").waitFor({ timeout: 20_000 });
    await a.page.getByLabel("Código de recuperación").fill(recoveryCodes[1]!);
    await a.page.getByRole("button", { name: "Usar código de recuperación" }).click();
    await a.page.waitForURL(/\/app$/);

    // A second browser signs in; the first ends it; the second is sent to sign-in.
    const b = await openPage(browser, { locale: "es-ES", viewport: { width: 390, height: 844 } });
    await signIn(b.page, "ana@example.com");
    await b.page.getByLabel("Código de recuperación").fill(recoveryCodes[2]!);
    await b.page.getByRole("button", { name: "Usar código de recuperación" }).click();
    await b.page.waitForURL(/\/app$/);
    await a.page.goto(`${server.url}/app/account`);
    const others = a.page.getByTestId("session-row").filter({ has: a.page.getByRole("button", { name: "Cerrar" }) });
    expect(await others.count()).toBeGreaterThanOrEqual(1);
    await a.page.getByRole("button", { name: "Cerrar todas las demás" }).click();
    await a.page.getByText(/Sesiones cerradas: \d+/).waitFor({ timeout: 20_000 });
    await b.page.goto(`${server.url}/app/account`);
    expect(new URL(b.page.url()).pathname).toBe("/app/login");

    // The audit trail names the refused code.
    await a.page.goto(`${server.url}/app/admin/audit?action=auth.sign_in_failed`);
    expect(await a.page.getByTestId("audit-row").count()).toBeGreaterThanOrEqual(1);
    await a.page.goto(`${server.url}/app/admin/audit?verify=1`);
    await expect(a.page.getByTestId("verification").textContent()).resolves.toContain("La cadena es íntegra");
    await b.close();
    await a.close();
  }, 120_000);

  test("every /app page: anonymous → sign-in; cookies; cross-site POST refused; never cached", async () => {
    for (const pathname of [
      "/app",
      "/app/account",
      "/app/admin/members",
      "/app/admin/groups",
      "/app/admin/tokens",
      "/app/admin/audit",
    ]) {
      const response = await fetch(`${server.url}${pathname}`, { redirect: "manual" });
      expect(response.status, pathname).toBe(302);
      expect(response.headers.get("location"), pathname).toMatch(/\/app\/login/);
      expect(response.headers.get("cache-control"), pathname).toMatch(/no-store|private/);
    }
    const login = await fetch(`${server.url}/app/login`);
    expect(login.headers.get("cache-control")).toMatch(/no-store/);
    const form = new URLSearchParams({ intent: "password", email: "ana@example.com", password });
    const signIn = await fetch(`${server.url}/app/login`, {
      method: "POST",
      body: form,
      redirect: "manual",
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(signIn.status).toBe(302);
    const cookies = signIn.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/vn\.two_factor=[^;]+;.*HttpOnly/i);
    expect(cookies).toMatch(/SameSite=Lax/i);
    expect(cookies).not.toMatch(/;\s*Secure/i);
    const crossSite = await fetch(`${server.url}/app/login`, {
      method: "POST",
      body: form,
      redirect: "manual",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
    });
    expect(crossSite.status).toBeGreaterThanOrEqual(400);
    expect(crossSite.headers.getSetCookie()).toEqual([]);
  }, 60_000);

  test("more than 5 failures from one address refuse that address for the account, with a clear message (429, Retry-After)", async () => {
    // Issue 22, finding 10: one address guessing cannot lock the owner out (the account locks
    // only when failures come from several addresses: tests/integration/sign-in-throttle.test.ts).
    const form = (pw: string) => new URLSearchParams({ intent: "password", email: "bob@example.com", password: pw });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${server.url}/app/login`, {
        method: "POST",
        body: form(`wrong-password-${i}`),
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      });
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get("retry-after");
    }
    expect(statuses).toEqual([...Array(5).fill(401), 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const { page, close } = await openPage(browser, { locale: "en-GB", viewport: { width: 1280, height: 900 } });
    await signIn(page, "bob@example.com", { email: "Email", password: "Password", submit: "Continue" });
    await page.getByText("Too many requests from your connection").waitFor({ timeout: 20_000 });
    await close();
  }, 60_000);

  test("forms check their input in the browser with the server's schema, before any request", async () => {
    const { page, errors, close } = await openPage(browser, { locale: "es-ES", viewport: { width: 390, height: 844 } });
    await page.goto(`${server.url}/app/login`);
    await page.waitForLoadState("networkidle");
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await page.getByLabel("Correo electrónico").fill("no-es-un-correo");
    await page.getByRole("button", { name: "Continuar" }).click();
    await page.getByText("Escribe una dirección de correo válida.").waitFor({ timeout: 20_000 });
    expect(posts).toEqual([]);
    // The first invalid field has the focus and names its message.
    const focused = await page.evaluate(() => {
      const field = document.activeElement as HTMLInputElement;
      return {
        name: field.name,
        described: document.getElementById(field.getAttribute("aria-describedby") ?? "")?.textContent,
      };
    });
    expect(focused).toEqual({ name: "email", described: "Escribe una dirección de correo válida." });
    // Corrected, the form goes to the server, which answers (wrong password) as before.
    await page.getByLabel("Correo electrónico").fill("ana@example.com");
    await page.getByLabel("Contraseña", { exact: true }).fill("una-contraseña-incorrecta");
    await page.getByRole("button", { name: "Continuar" }).click();
    await page.getByText("El correo o la contraseña no son correctos.").waitFor({ timeout: 20_000 });
    expect(posts.length).toBe(1);
    expect(errors.filter((line) => !/status of 401/.test(line))).toEqual([]);
    await close();
  }, 60_000);

  test("every signed-in page is valid HTML as served", async () => {
    // Sign in over HTTP with a recovery code (the browser tests above spent the first three).
    const origin = { origin: server.url, "content-type": "application/x-www-form-urlencoded" };
    const first = await fetch(`${server.url}/app/login`, {
      method: "POST",
      redirect: "manual",
      headers: origin,
      body: new URLSearchParams({ intent: "password", email: "ana@example.com", password }),
    });
    const pending = first.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const second = await fetch(`${server.url}/app/login`, {
      method: "POST",
      redirect: "manual",
      headers: { ...origin, cookie: pending },
      body: new URLSearchParams({ intent: "recovery", code: recoveryCodes[4]! }),
    });
    expect(second.status).toBe(302);
    const cookie = second.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .filter((pair) => !pair!.endsWith("="))
      .join("; ");
    for (const pathname of [
      "/app",
      "/app/account",
      "/app/admin/members",
      "/app/admin/groups",
      "/app/admin/tokens",
      "/app/admin/audit",
      "/app/no-such-page",
    ]) {
      const response = await fetch(`${server.url}${pathname}`, {
        redirect: "manual",
        headers: { ...browserHeaders, cookie },
      });
      expect(response.status, pathname).toBe(pathname === "/app/no-such-page" ? 404 : 200);
      expect(response.headers.get("content-type"), pathname).toMatch(/text\/html/);
      expect(await htmlProblems(await response.text()), pathname).toEqual([]);
    }
  }, 60_000);

  /**
   * Screenshots of every platform page at 390 and 1440 px, light and dark, into screenshots/app/
   * (SCREENSHOTS=1 npm run test:e2e -- tests/e2e/platform.test.ts).
   */
  test.runIf(process.env.SCREENSHOTS)(
    "screenshots of every page",
    async () => {
      const dir = path.resolve(import.meta.dirname, "../../screenshots/app");
      mkdirSync(dir, { recursive: true });
      // An admin's session (recovery code: the TOTP steps are spent by the tests above).
      const admin = await openPage(browser, { locale: "es-ES", viewport: { width: 1440, height: 900 } });
      await signIn(admin.page, "ana@example.com");
      await admin.page.getByLabel("Código de recuperación").fill(recoveryCodes[3]!);
      await admin.page.getByRole("button", { name: "Usar código de recuperación" }).click();
      await admin.page.waitForURL(/\/app$/);
      await admin.page.goto(`${server.url}/app/admin/groups`);
      await admin.page.getByLabel("Nombre del grupo").fill("Cumplimiento normativo");
      await admin.page.getByRole("button", { name: "Crear grupo" }).click();
      await admin.page.getByTestId("group-card").first().waitFor({ timeout: 20_000 });
      await admin.page.goto(`${server.url}/app/admin/members`);
      for (const email of ["carla@example.com", "dan@example.com"]) {
        await admin.page.getByLabel("Correo de la persona invitada").fill(email);
        await admin.page.getByRole("button", { name: "Enviar invitación" }).click();
        await admin.page.getByText(`Invitación enviada a ${email}`).waitFor({ timeout: 20_000 });
      }
      const linkFor = async (email: string) =>
        /http:\/\/127\.0\.0\.1:\d+\/app\/invite\/[\w-]+/.exec(unquote((await waitForMail(email)).raw))?.[0] ?? "";
      const adminState = await admin.page.context().storageState();
      // A session before MFA: Carla accepts, stops at enrolment.
      const carla = await openPage(browser, { locale: "es-ES", viewport: { width: 1440, height: 900 } });
      await carla.page.goto(await linkFor("carla@example.com"));
      await carla.page.getByLabel("Tu nombre").fill("Carla");
      await carla.page.getByLabel("Contraseña (mínimo 12 caracteres)").fill(password);
      await carla.page.getByRole("button", { name: "Aceptar y continuar" }).click();
      await carla.page.waitForURL(/\/app\/mfa$/);
      const enrolState = await carla.page.context().storageState();
      const danLink = await linkFor("dan@example.com");
      const pages: { name: string; url: string; state?: typeof adminState }[] = [
        { name: "login", url: "/app/login" },
        { name: "reset", url: "/app/reset" },
        { name: "invite", url: danLink.replace(/^http:\/\/127\.0\.0\.1:\d+/, "") },
        { name: "mfa", url: "/app/mfa", state: enrolState },
        { name: "home", url: "/app", state: adminState },
        { name: "account", url: "/app/account", state: adminState },
        { name: "members", url: "/app/admin/members", state: adminState },
        { name: "groups", url: "/app/admin/groups", state: adminState },
        { name: "tokens", url: "/app/admin/tokens", state: adminState },
        { name: "audit", url: "/app/admin/audit?verify=1", state: adminState },
      ];
      for (const width of [390, 1440]) {
        for (const colorScheme of ["light", "dark"] as const) {
          for (const entry of pages) {
            const context = await browser.newContext({
              viewport: { width, height: 900 },
              colorScheme,
              locale: "es-ES",
              ...(entry.state ? { storageState: entry.state } : {}),
            });
            const page = await context.newPage();
            const response = await page.goto(`${server.url}${entry.url}`);
            expect(response?.status(), entry.name).toBe(200);
            await page.screenshot({
              path: path.join(dir, `${entry.name}-${width}-${colorScheme}.png`),
              fullPage: true,
            });
            await context.close();
          }
        }
      }
      await carla.close();
      await admin.close();
    },
    300_000,
  );
});
