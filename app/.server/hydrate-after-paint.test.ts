import { describe, expect, it } from "vitest";
import { deferredModuleId, hydrateAfterPaint, hydrateAfterPaintScript } from "./hydrate-after-paint";

const moduleBody =
  'import "/assets/manifest-1.js";\nimport * as route0 from "/assets/root-1.js";\nimport("/assets/entry.client-1.js");';
const page = [
  '<html><head><link rel="modulepreload" href="/assets/manifest-1.js" nonce="N"/>',
  '<link rel="modulepreload" href="/assets/root-1.js" nonce="N"/>',
  '<link nonce="N" rel="stylesheet" href="/assets/root-1.css"/></head><body><p>text</p>',
  '<script nonce="N">window.__reactRouterContext = {};</script>',
  `<script nonce="N" type="module" async="">${moduleBody}</script></body></html>`,
].join("");

describe("hydrateAfterPaint", () => {
  it("drops the preloads and turns the module script inert, with the loader after it", () => {
    const html = hydrateAfterPaint(page);
    const withoutLoader = html.replace(hydrateAfterPaintScript, "");
    expect(withoutLoader).not.toContain('rel="modulepreload"');
    expect(withoutLoader).not.toContain('type="module"');
    expect(html).toContain('<link nonce="N" rel="stylesheet" href="/assets/root-1.css"/>');
    expect(html).toContain(
      `<script nonce="N" type="text/x-deferred-module" id="${deferredModuleId}" data-modulepreload="/assets/manifest-1.js /assets/root-1.js">${moduleBody}</script><script nonce="N">${hydrateAfterPaintScript}</script></body>`,
    );
  });

  it("leaves a page it does not recognise alone", () => {
    const noModule = page.replace(/<script nonce="N" type="module"[\s\S]*?<\/script>/, "");
    expect(hydrateAfterPaint(noModule)).toBe(noModule);
    const noPreloads = page.replace(/<link rel="modulepreload"[^>]*>/g, "");
    expect(hydrateAfterPaint(noPreloads)).toBe(noPreloads);
  });
});
