/**
 * The webhooks admin page in Chromium (issue 39), against the built app in this process (PGlite)
 * and a real HTTP receiver on loopback, at 1440 and 390 px, in Spanish and English: create (the
 * URL typed, the events chosen from the catalogue by keyboard), the signing secret shown once, a
 * test delivery received and verified (Standard Webhooks) with its answer on the page, the recent
 * deliveries listed, disable, then delete after its confirmation. axe clean at each step, nothing
 * wider than the screen. SCREENSHOTS=1 keeps them under screenshots/app/.
 */
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import axe from "axe-core";
import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { webhookEventTypes } from "../../app/.server/alerts/channels/webhook/events.ts";
import { launchBrowser, visitorUserAgent } from "../support/browser.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { type SignedIn, setupOwner } from "../support/platform-members.ts";

interface Hit {
  headers: Record<string, string>;
  body: string;
}

let server: Awaited<ReturnType<typeof startInProcessServer>>;
let browser: Browser;
let owner: SignedIn;
let receiver: Server;
let receiverUrl = "";
const hits: Hit[] = [];

beforeAll(async () => {
  server = await startInProcessServer({ WEBHOOKS_ALLOW_PRIVATE_URLS: "1" });
  browser = await launchBrowser();
  owner = await setupOwner(server.app.services.auth, server.dataDir, {
    email: "ana@hooks.example",
    name: "Ana Ruiz",
    organizationName: "Org Webhooks",
  });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      hits.push({
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/vigia`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

async function axeViolations(page: Page) {
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.map(String)) }));
  });
}

const copy = {
  es: {
    url: "URL de destino",
    create: "Crear webhook",
    secretOnce: "No volverás a verlo.",
    test: "Enviar prueba",
    received: "Prueba recibida",
    delivered: "Entregado",
    testLabel: "Prueba",
    disable: "Desactivar",
    disabled: "Desactivado",
    active: "Activo",
    enable: "Activar",
    remove: "Eliminar…",
    confirm: "Sí, eliminar este webhook",
    deleted: "Webhook eliminado.",
    empty: "Aún no hay ningún webhook.",
    firstEvent: "Un documento coincide con los filtros del webhook",
    lawEvent: "Cambia una ley que sigue tu organización",
  },
  en: {
    url: "Destination URL",
    create: "Create webhook",
    secretOnce: "You will not see it again.",
    test: "Send a test",
    received: "Test received",
    delivered: "Delivered",
    testLabel: "Test",
    disable: "Disable",
    disabled: "Disabled",
    active: "Active",
    enable: "Enable",
    remove: "Delete…",
    confirm: "Yes, delete this webhook",
    deleted: "Webhook deleted.",
    empty: "No webhooks yet.",
    firstEvent: "A document matches the webhook's filters",
    lawEvent: "A law your organisation follows changes",
  },
} as const;

async function checkPage(page: Page, width: number, label: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), label).toBeLessThanOrEqual(width);
  const violations = await axeViolations(page);
  expect(violations, `${label}: ${JSON.stringify(violations)}`).toEqual([]);
}

describe("the webhooks admin page", () => {
  for (const [locale, width] of [
    ["es", 1440],
    ["en", 390],
    ["es", 390],
    ["en", 1440],
  ] as const) {
    test(`create, secret once, a signed test received, deliveries, disable, delete (${locale}, ${width} px)`, async () => {
      const t = copy[locale];
      const context = await browser.newContext({
        userAgent: visitorUserAgent(browser),
        viewport: { width, height: 900 },
        reducedMotion: "reduce",
      });
      await context.addCookies(
        owner.cookie
          .split(/;\s*/)
          .filter(Boolean)
          .map((pair) => ({
            name: pair.slice(0, pair.indexOf("=")),
            value: pair.slice(pair.indexOf("=") + 1),
            url: server.url,
          })),
      );
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      const switched = await page.request.post(`${server.url}/app/locale`, {
        form: { locale },
        headers: { origin: server.url },
        maxRedirects: 0,
      });
      expect(switched.status()).toBe(302);
      const shot = async (name: string) => {
        if (!process.env.SCREENSHOTS) return;
        const dir = path.resolve(import.meta.dirname, "../../screenshots/app");
        mkdirSync(dir, { recursive: true });
        await page.screenshot({ path: path.join(dir, `webhooks-${name}-${locale}-${width}.png`), fullPage: true });
      };

      // Each run starts from an organisation without webhooks (a failed run may have left one).
      await server.app.database.rows(sql`delete from webhooks`);
      await page.goto(`${server.url}/app/admin/webhooks`);
      await page.getByText(t.empty).waitFor();
      // Every event of the catalogue is offered (another capability's new type appears by itself).
      expect(await page.locator('input[name="events"]').count()).toBe(webhookEventTypes.length);
      await checkPage(page, width, "empty");

      // Create from the keyboard: the URL typed, a second event ticked with Space, Enter submits.
      await page.getByLabel(t.url).focus();
      await page.keyboard.type(receiverUrl);
      await page.getByRole("checkbox", { name: t.firstEvent }).focus();
      expect(await page.getByRole("checkbox", { name: t.firstEvent }).isChecked()).toBe(true);
      await page.keyboard.press("Tab");
      await page.keyboard.press("Space");
      expect(await page.getByRole("checkbox", { name: t.lawEvent }).isChecked()).toBe(true);
      await page.getByRole("button", { name: t.create }).focus();
      await page.keyboard.press("Enter");
      const secretBox = page.getByTestId("new-secret");
      await secretBox.waitFor();
      const secret = ((await secretBox.textContent()) ?? "").trim();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
      await page.getByText(t.secretOnce).waitFor();
      const card = page.getByTestId("webhook");
      await expect.poll(() => card.count()).toBe(1);
      // The form is empty again for the next one.
      expect(await page.getByLabel(t.url).inputValue()).toBe("");
      await checkPage(page, width, "created");
      await shot("created");

      // Shown once: the next visit lists the webhook without its secret.
      await page.goto(`${server.url}/app/admin/webhooks`);
      await card.waitFor();
      expect(await page.getByTestId("new-secret").count()).toBe(0);
      expect(await page.content()).not.toContain(secret);

      // A test delivery: received by the receiver, signed with that secret, its answer on the page.
      const before = hits.length;
      await card.getByRole("button", { name: t.test }).click();
      const result = page.getByTestId("test-result");
      await result.waitFor({ timeout: 20_000 });
      expect(await result.textContent()).toContain(t.received);
      expect(hits.length).toBe(before + 1);
      const hit = hits.at(-1) as Hit;
      const body = new Webhook(secret).verify(hit.body, {
        "webhook-id": hit.headers["webhook-id"] ?? "",
        "webhook-timestamp": hit.headers["webhook-timestamp"] ?? "",
        "webhook-signature": hit.headers["webhook-signature"] ?? "",
      }) as { type: string; data: { webhookId: string } };
      const webhookId = await card.getAttribute("data-webhook-id");
      expect(body).toMatchObject({ type: "webhook.test", data: { webhookId } });
      expect(await result.textContent()).toContain(hit.headers["webhook-id"]);

      // The recent deliveries list it: delivered, one attempt, under its webhook-id.
      const row = card.getByTestId("webhook-delivery");
      // (the list comes with the loaders' revalidation after the action: wait for it, as a reader would)
      await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
      expect(await row.getAttribute("data-status")).toBe("sent");
      expect(await row.textContent()).toContain(t.delivered);
      expect(await row.textContent()).toContain(t.testLabel);
      expect(await row.textContent()).toContain(hit.headers["webhook-id"]);
      await checkPage(page, width, "tested");
      await shot("tested");

      // Disable, then enable again.
      await card.getByRole("button", { name: t.disable }).click();
      await expect.poll(() => card.getByTestId("webhook-status").textContent()).toBe(t.disabled);
      await checkPage(page, width, "disabled");
      await shot("disabled");
      await card.getByRole("button", { name: t.enable }).click();
      await expect.poll(() => card.getByTestId("webhook-status").textContent()).toBe(t.active);

      // Delete: the disclosure from the keyboard, then its confirmation.
      const summary = card.getByText(t.remove, { exact: true });
      await summary.focus();
      await page.keyboard.press("Enter");
      const confirm = card.getByRole("button", { name: t.confirm });
      await confirm.waitFor();
      await checkPage(page, width, "confirm");
      await shot("confirm");
      await confirm.focus();
      await page.keyboard.press("Enter");
      await page.getByText(t.deleted).waitFor();
      await page.getByText(t.empty).waitFor();
      expect(await page.getByTestId("webhook").count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
