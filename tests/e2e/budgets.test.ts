/**
 * Byte and request budgets of the Spanish home page, measured on the built server in Chromium.
 * Deterministic: JavaScript is weighed as gzip level 6 of each file's uncompressed bytes;
 * CSS and HTML as the brotli bytes the server sends. The numbers live in scripts/budgets.ts.
 */
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatBytes, rawRequest } from "../../scripts/bench-lib.ts";
import { loadPage, type PageLoad } from "../../scripts/bench-page.ts";
import { budgets } from "../../scripts/budgets.ts";
import { launchBrowser } from "../support/browser.ts";
import { type RunningServer, startServer } from "../support/server.ts";

const spanish = "es-ES,es;q=0.9";

let server: RunningServer;
let browser: Browser;
let load: PageLoad;
let initial: PageLoad;

beforeAll(async () => {
  server = await startServer({ env: { LOG_LEVEL: "warn" } });
  browser = await launchBrowser();
  // The initial load is what the budget counts; a second load scrolled to the end
  // shows lazily loaded resources for the origin check.
  initial = await loadPage(browser, `${server.url}/`, { locale: "es-ES" });
  load = await loadPage(browser, `${server.url}/`, { locale: "es-ES", scroll: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Bytes of one resource fetched again from the server with the given encoding (none: uncompressed). */
async function served(url: string, encoding?: "br"): Promise<{ bytes: number; encoding: string; body: Buffer }> {
  const headers: Record<string, string> = { "accept-language": spanish };
  if (encoding) headers["accept-encoding"] = encoding;
  const res = await rawRequest(url, { headers });
  expect(res.status, url).toBe(200);
  return { bytes: res.body.length, encoding: String(res.headers["content-encoding"] ?? "identity"), body: res.body };
}

describe("budgets of /", () => {
  it("loads the Spanish page without a redirect", () => {
    expect(new URL(initial.finalUrl).pathname).toBe("/");
    expect(initial.resources.filter((r) => r.failed)).toEqual([]);
  });

  it(`downloads at most ${formatBytes(budgets.javascriptGzipBytes)} of JavaScript (gzip -6)`, async () => {
    const scripts = initial.resources.filter((r) => r.type === "Script" || /javascript/.test(r.mimeType));
    let total = 0;
    const lines: string[] = [];
    for (const script of scripts) {
      const { body, encoding } = await served(script.url);
      expect(encoding, script.url).toBe("identity");
      const gzipped = gzipSync(body, { level: 6 }).length;
      total += gzipped;
      lines.push(`  ${new URL(script.url).pathname}: ${formatBytes(body.length)} raw, ${formatBytes(gzipped)} gzip -6`);
    }
    console.log(
      `JavaScript for /: ${scripts.length} files, ${formatBytes(total)} gzip -6 (budget ${formatBytes(budgets.javascriptGzipBytes)})\n${lines.join("\n")}`,
    );
    expect(total).toBeLessThanOrEqual(budgets.javascriptGzipBytes);
  });

  it(`downloads at most ${formatBytes(budgets.cssBrotliBytes)} of CSS (brotli as served)`, async () => {
    const sheets = initial.resources.filter((r) => r.type === "Stylesheet" || r.mimeType === "text/css");
    let total = 0;
    for (const sheet of sheets) total += (await served(sheet.url, "br")).bytes;
    console.log(
      `CSS for /: ${sheets.length} files, ${formatBytes(total)} as served with br (budget ${formatBytes(budgets.cssBrotliBytes)})`,
    );
    expect(total).toBeLessThanOrEqual(budgets.cssBrotliBytes);
  });

  it(`sends at most ${formatBytes(budgets.htmlBrotliBytes)} of HTML (brotli as served)`, async () => {
    const html = await served(`${server.url}/`, "br");
    const raw = await served(`${server.url}/`);
    console.log(
      `HTML of /: ${formatBytes(raw.bytes)} raw, ${formatBytes(html.bytes)} as served with ${html.encoding} (budget ${formatBytes(budgets.htmlBrotliBytes)})`,
    );
    expect(html.bytes).toBeLessThanOrEqual(budgets.htmlBrotliBytes);
  });

  it(`makes at most ${budgets.maxRequests} requests`, () => {
    console.log(
      `requests for /: ${initial.resources.length} on load, ${load.resources.length} after scrolling to the end (budget ${budgets.maxRequests}; Chromium's own /favicon.ico request not counted)\n${initial.resources
        .map((r) => `  ${r.status} ${r.type} ${r.url.replace(server.url, "")}`)
        .join("\n")}`,
    );
    expect(initial.resources.length).toBeLessThanOrEqual(budgets.maxRequests);
  });

  it("requests nothing from any other origin and has no render-blocking third-party resource", () => {
    const otherOrigins = [...initial.resources, ...load.resources]
      .map((r) => r.url)
      .filter((url) => new URL(url).origin !== server.url);
    expect(otherOrigins).toEqual([]);
    expect([...initial.renderBlockingOtherOrigin, ...load.renderBlockingOtherOrigin]).toEqual([]);
  });
});
