/** `npm run dev`: the same server with Vite in middleware mode serves every page with the production services. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../support/server.ts";

const ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ dev: true });
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

function get(pathname: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${pathname}`, { redirect: "manual", headers: { "user-agent": ua, ...headers } });
}

describe("development server", () => {
  it("serves the Spanish and English home pages with the router context in place", async () => {
    const es = await get("/", { "accept-language": "es-ES,es;q=0.9" });
    expect(es.status).toBe(200);
    const esHtml = await es.text();
    expect(esHtml).toContain('<html lang="es"');
    expect(esHtml).toContain('id="contact"');
    const en = await get("/en");
    expect(en.status).toBe(200);
    expect(await en.text()).toContain('<html lang="en"');
    expect(en.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
  });

  it("answers an unknown path with the 404 error page", async () => {
    const response = await get("/en/x");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page Not Found");
  });

  it("serves the app's modules through Vite for hot reload", async () => {
    const html = await (await get("/en")).text();
    expect(html).toContain("/app/entry.client.tsx");
    const client = await get("/app/entry.client.tsx");
    expect(client.status).toBe(200);
    expect(client.headers.get("content-type")).toMatch(/javascript/);
  });

  it("reports healthy with the database ready", async () => {
    const health = await get("/healthz");
    expect(health.status).toBe(200);
  });
});
