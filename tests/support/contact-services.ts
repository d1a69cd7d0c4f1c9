/** In-process services for the contact tests: real database (PGlite or PostgreSQL), real SMTP sink. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../../app/.server/config.ts";
import type { RequestInfo } from "../../app/.server/context.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createServices, type Services } from "../../app/.server/services.ts";
import { projectRoot } from "./server.ts";

export async function startServices(env: Record<string, string | undefined>, options: { pollMs?: number } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "contact-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    FORM_SECRET: "test-secret-test-secret-test-secret-0123",
    SITE_URL: "http://127.0.0.1:3000",
    LOG_LEVEL: "silent",
    OUTBOX_RETRY_BASE_MS: "50",
    OUTBOX_RETRY_MAX_MS: "200",
    ...env,
  });
  const logLines: Record<string, unknown>[] = [];
  const log = createLogger("silent");
  const app: Services = await createServices(config, log, {
    migrationsDir: path.join(projectRoot, "drizzle"),
    inMemory: true,
    pollMs: options.pollMs ?? 50,
  });
  await app.start();
  return {
    ...app,
    config,
    logLines,
    async close() {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function requestInfo(clientIp = "203.0.113.7"): RequestInfo {
  return { requestId: "test-request", clientIp, secure: false, log: createLogger("silent"), nonce: "test-nonce" };
}

export function jsonRequest(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1:3000/mail/send", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export const validLead = {
  name: "Ana",
  firstName: "Núñez O'Brien",
  email: "ana@example.com",
  position: "CCO",
  company: "Banco Ejemplo",
  phone: "+34 600 000 000",
  location: "Madrid",
  comments: "Queremos una demo.",
};

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("condition not met in time");
}
