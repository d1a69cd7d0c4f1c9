/**
 * A webhook receiver down for a day (issue 42), on the built server, with the embedded database and
 * with PostgreSQL (TEST_DATABASE_URL): the delivery is retried on a bounded back-off through a
 * SIGKILL of the server in the middle of the day, then dead at the end of its window and the webhook
 * marked failing (the API and the admin page say so); an event of the failing day is held, not
 * sent. The receiver comes back; an admin resumes the webhook (the page's form and the API at
 * once: a double resume); each held delivery then arrives exactly once, with its original
 * Standard Webhooks id and a valid signature.
 *
 * Time is compressed by configuration, not faked: one second of the test is one hour of the real
 * schedule (÷ 3600). ALERTS_RETRY_BASE_MS 1 (5 s ÷ 3600 ≈ 1.4 ms), ALERTS_RETRY_MAX_MS 500 (30 min),
 * ALERTS_RETRY_WINDOW_MS 24000 (24 h). The worker's poll (500 ms) is not scaled: at this scale it is
 * 30 min, the back-off's cap, so the first retries come at most one poll apart instead of seconds
 * apart; the test therefore sees fewer attempts than the real schedule, never more.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { retryDelayMs } from "../../app/.server/kernel/outbox.ts";
import { insertDocument } from "../support/evidence-fixtures.ts";
import { setupOwnerOverHttp } from "../support/http-session.ts";
import { databaseTargets } from "../support/postgres.ts";
import { type RunningServer, startServer } from "../support/server.ts";

const authSecret = "webhook-day-auth-secret-0123456789abcdef";
const settings = { retryBaseMs: 1, retryMaxMs: 500, windowMs: 24_000 };
const compressed = {
  ALERTS_RETRY_BASE_MS: String(settings.retryBaseMs),
  ALERTS_RETRY_MAX_MS: String(settings.retryMaxMs),
  ALERTS_RETRY_WINDOW_MS: String(settings.windowMs),
};

/** The most attempts the schedule allows in its window: every delay at its shortest (the jitter's half). */
function mostAttempts(): number {
  let elapsed = 0;
  let attempts = 1;
  while (elapsed + retryDelayMs(attempts, settings, () => 0) <= settings.windowMs) {
    elapsed += retryDelayMs(attempts, settings, () => 0);
    attempts++;
  }
  return attempts;
}

interface Hit {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  status: number;
  at: number;
}

/** A receiver that answers 503 while `down`, 204 otherwise, and records every request. */
async function startReceiver() {
  const hits: Hit[] = [];
  let down = true;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const status = down ? 503 : 204;
      hits.push({
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        signature: String(req.headers["webhook-signature"]),
        body: Buffer.concat(chunks).toString("utf8"),
        status,
        at: Date.now(),
      });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    hits,
    setDown(value: boolean) {
      down = value;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface DeliveryRow {
  id: string;
  type: string;
  status: string;
  attempts: number;
  createdAt: string;
}

const targets = databaseTargets();
afterAll(async () => {
  for (const target of targets) await target.cleanup();
});

describe.each(targets.map((target) => [target.name, target] as const))(
  "a webhook receiver down for a day (%s)",
  (_, target) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "faults-webhook-day-"));
    let server: RunningServer | undefined;
    let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
    afterAll(async () => {
      await server?.stop("SIGKILL");
      await receiver?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("backs off within bounds, marks the webhook failing, holds, and after a resume delivers each once with its id", async () => {
      const databaseUrl = await target.create();
      const open = (): Promise<Database> =>
        openDatabase(databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, "db") });
      const documents: string[] = [];
      {
        const database = await open();
        await migrate(database, defaultMigrationsDir);
        setAuditSecret(authSecret);
        for (const n of [1, 2])
          documents.push(
            await insertDocument(database, {
              source: "boe",
              sourceId: `BOE-A-2026-70${n}`,
              title: `Resolución de prueba ${n}`,
              publishedOn: "2026-12-01",
            }),
          );
        await database.close();
      }
      const env = {
        AUTH_SECRET: authSecret,
        WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...compressed,
      };
      receiver = await startReceiver();
      server = await startServer({ dataDir, env });
      const owner = await setupOwnerOverHttp(server.url, dataDir);
      const tokenPage = await (
        await owner.request("/app/admin/tokens", { form: { intent: "create", name: "hooks", scope: "admin" } })
      ).text();
      const token = tokenPage.match(/data-testid="new-token">([^<]+)</)?.[1] ?? "";
      expect(token).not.toBe("");
      const api = async (pathname: string, init: { method?: string; body?: unknown } = {}) => {
        const response = await fetch(`${(server as RunningServer).url}/api/v1${pathname}`, {
          method: init.method ?? "GET",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "accept-language": "en" },
          ...(init.body ? { body: JSON.stringify(init.body) } : {}),
        });
        return { status: response.status, json: response.status === 204 ? null : await response.json() };
      };

      // A webhook of the organisation's triage events; then one event while the receiver is down.
      const created = await api("/webhooks", {
        method: "POST",
        body: { url: receiver.url, events: ["document.triaged"] },
      });
      expect(created.status).toBe(201);
      const hook = created.json as { id: string; secret: string; status: string };
      expect(hook.status).toBe("active");
      const deliveries = async () => (await api(`/webhooks/${hook.id}/deliveries`)).json as DeliveryRow[];
      expect(
        (await api(`/documents/${documents[0]}/triage`, { method: "PUT", body: { rationale: "día 1" } })).status,
      ).toBe(200);
      const [first] = await deliveries();
      if (!first) throw new Error("no delivery queued");
      const firstCreated = new Date(first.createdAt).getTime();
      const attemptsOf = (id: string) => receiver?.hits.filter((hit) => hit.id === id) ?? [];

      // Mid-day (about 10 h in): the server is SIGKILLed just after an attempt, and started again.
      await expect
        .poll(() => attemptsOf(first.id).length, { timeout: 30_000, interval: 100 })
        .toBeGreaterThanOrEqual(3);
      await expect.poll(() => Date.now() - firstCreated, { timeout: 30_000, interval: 100 }).toBeGreaterThan(10_000);
      // Between two attempts: the last one's failure recorded (a kill during a send would leave the
      // row to its lease, 2 minutes, which is not compressed).
      await expect
        .poll(
          async () => {
            const [row] = await deliveries();
            return row?.status === "pending" && row.attempts === attemptsOf(first.id).length;
          },
          { timeout: 10_000, interval: 20 },
        )
        .toBe(true);
      expect(await server.stop("SIGKILL")).toBeNull();
      const beforeKill = attemptsOf(first.id).length;
      server = await startServer({ dataDir, env, port: server.port });
      // The retry state is the row's: attempts go on counting from where they were (after the
      // lease if the kill caught a send after all).
      await expect
        .poll(async () => (await deliveries())[0]?.attempts ?? 0, { timeout: 150_000 })
        .toBeGreaterThan(beforeKill);

      // The day ends: the delivery is dead, the webhook failing, in the API and on the admin page.
      await expect
        .poll(async () => ((await api("/webhooks")).json as { status: string }[])[0]?.status, {
          // The window, and a lease (2 minutes) if the kill caught a send after all.
          timeout: 120_000 + settings.windowMs + 30_000,
          interval: 250,
        })
        .toBe("failing");
      const [failing] = (await api("/webhooks")).json as { failingSince: string; failingError: string }[];
      expect(failing?.failingError).toBe("HTTP 503");
      const failedAfter = new Date(failing?.failingSince ?? 0).getTime() - firstCreated;
      expect(failedAfter).toBeGreaterThanOrEqual(settings.windowMs - settings.retryMaxMs);
      const tries = attemptsOf(first.id);
      expect(tries.every((hit) => hit.status === 503)).toBe(true);
      // Bounded: retried through the day, never more often than the schedule allows (first try included).
      expect(tries.length).toBeGreaterThanOrEqual(10);
      expect(tries.length).toBeLessThanOrEqual(mostAttempts());
      const page = await (await owner.request("/app/admin/webhooks")).text();
      expect(page).toContain("Con fallos");
      expect(page).toContain("HTTP 503");

      // An event of the failing day is held: stored, not sent.
      expect(
        (await api(`/documents/${documents[1]}/triage`, { method: "PUT", body: { rationale: "día 2" } })).status,
      ).toBe(200);
      const rows = await deliveries();
      const second = rows.find((row) => row.id !== first.id);
      if (!second) throw new Error("the second event was not queued");
      await expect.poll(async () => (await deliveries()).find((row) => row.id === second.id)?.status).toBe("held");
      expect((await deliveries()).find((row) => row.id === first.id)?.status).toBe("dead");
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(attemptsOf(second.id)).toEqual([]);

      // The receiver is back; an admin resumes the webhook twice at once (the page and the API).
      receiver.setDown(false);
      const [byPage, byApi] = await Promise.all([
        owner.request("/app/admin/webhooks", { form: { intent: "enable", id: hook.id } }),
        api(`/webhooks/${hook.id}`, { method: "PATCH", body: { enabled: true } }),
      ]);
      expect(byPage.status).toBe(200);
      expect(byApi.status).toBe(200);
      expect((byApi.json as { status: string }).status).toBe("active");
      await expect.poll(() => receiver?.hits.filter((hit) => hit.status === 204).length, { timeout: 20_000 }).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const delivered = receiver.hits.filter((hit) => hit.status === 204);
      // Exactly once each, under its original id, signed with the webhook's secret.
      expect(delivered.map((hit) => hit.id).sort()).toEqual([first.id, second.id].sort());
      const verifier = new Webhook(hook.secret);
      for (const hit of delivered) {
        const body = verifier.verify(hit.body, {
          "webhook-id": hit.id,
          "webhook-timestamp": hit.timestamp,
          "webhook-signature": hit.signature,
        }) as { type: string; data: { webhookId: string } };
        expect(body).toMatchObject({ type: "document.triaged", data: { webhookId: hook.id } });
      }
      expect((await deliveries()).map((row) => row.status)).toEqual(["sent", "sent"]);
      expect(((await api("/webhooks")).json as { status: string }[])[0]?.status).toBe("active");
      expect(await server.stop()).toBe(0);
    }, 600_000);
  },
);
