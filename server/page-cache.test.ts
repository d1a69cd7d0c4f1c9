import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createPageCache, isCachedPage, type RenderedPage, sharedMaxAgeMs, withScriptHashes } from "./page-cache.ts";

const shared = "public, max-age=0, s-maxage=1";
const page = (text: string, headers: Record<string, string> = { "cache-control": shared }): RenderedPage => ({
  status: 200,
  headers,
  body: Buffer.from(text),
  etag: `"${text}"`,
});
const sha = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;

describe("page cache", () => {
  it("renders once per TTL and shares a render between concurrent visitors", async () => {
    let now = 0;
    let renders = 0;
    const cache = createPageCache(1000, () => now);
    const render = async () => page(`v${++renders}`);
    await cache.get("/", {}, render);
    const [a, b] = await Promise.all([cache.get("/", {}, render), cache.get("/", {}, render)]);
    expect(renders).toBe(1);
    expect(a.body.toString()).toBe("v1");
    expect(b).toBe(a);
    expect(isCachedPage(a) && a.br.length > 0 && a.gzip.length > 0).toBe(true);
    now = 999;
    expect((await cache.get("/", {}, render)).body.toString()).toBe("v1");
    expect(renders).toBe(1);
  });

  it("keeps only what the route declares shareable, never longer than its s-maxage or the cap", async () => {
    let now = 0;
    let renders = 0;
    const cache = createPageCache(1000, () => now);
    const privatePage = async () => page(`p${++renders}`, { "cache-control": "private, no-cache" });
    await cache.get("/a", {}, privatePage);
    expect((await cache.get("/a", {}, privatePage)).body.toString()).toBe("p2");
    const browserOnly = async () => page(`b${++renders}`, { "cache-control": "public, max-age=3600" });
    await cache.get("/b", {}, browserOnly);
    expect((await cache.get("/b", {}, browserOnly)).body.toString()).toBe("b4");
    const long = async () => page(`l${++renders}`, { "cache-control": "public, s-maxage=60" });
    await cache.get("/c", {}, long);
    now = 2500;
    expect((await cache.get("/c", {}, long)).body.toString()).toBe("l6");
    expect(sharedMaxAgeMs(page("x", { "cache-control": "public, s-maxage=5, no-store" }))).toBe(0);
  });

  it("keeps one copy per value of the request headers the answer varies on", async () => {
    const cache = createPageCache(1000, () => 0);
    const render = (lang: string) => async () =>
      page(lang, { "cache-control": shared, vary: "Cookie, Accept-Language, Accept-Encoding" });
    await cache.get("/", { "accept-language": "es" }, render("es"));
    expect((await cache.get("/", { "accept-language": "es" }, render("x"))).body.toString()).toBe("es");
    expect((await cache.get("/", { "accept-language": "en" }, render("en"))).body.toString()).toBe("en");
    expect((await cache.get("/", { "accept-language": "es", cookie: "locale=en" }, render("c"))).body.toString()).toBe(
      "c",
    );
    const any = async () => page("star", { "cache-control": shared, vary: "*" });
    await cache.get("/star", {}, any);
    expect(isCachedPage(await cache.get("/star", {}, any))).toBe(false);
  });

  it("serves a copy expired by less than a TTL while refreshing, never an older one", async () => {
    let now = 0;
    let renders = 0;
    const cache = createPageCache(1000, () => now);
    const render = async () => page(`v${++renders}`);
    await cache.get("/", {}, render);
    now = 1500;
    expect((await cache.get("/", {}, render)).body.toString()).toBe("v1");
    await new Promise((resolve) => setTimeout(resolve, 20));
    now = 10_000;
    expect((await cache.get("/", {}, render)).body.toString()).toBe("v3");
  });

  it("does not keep error pages, and a failed refresh reaches nobody unhandled", async () => {
    let now = 0;
    const cache = createPageCache(1000, () => now);
    const notFound = await cache.get("/x", {}, async () => ({ ...page("404"), status: 404 }));
    expect(isCachedPage(notFound)).toBe(false);
    await cache.get("/", {}, async () => page("ok"));
    now = 1200;
    const stale = await cache.get("/", {}, async () => {
      throw new Error("render failed");
    });
    expect(stale.body.toString()).toBe("ok");
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it("swaps the nonce for the hashes of the scripts that carried it, and of no other", () => {
    const html =
      '<script nonce="N1">own()</script><script type="module" nonce="N1">boot()</script>' +
      '<p><script>injected()</script></p><script nonce="other">forged()</script><script src="/x.js" nonce="N1"></script>';
    const hashed = withScriptHashes({
      ...page(html),
      headers: { "content-security-policy": "default-src 'self'; script-src 'self' 'nonce-N1'; object-src 'none'" },
    });
    const policy = String(hashed.headers["content-security-policy"]);
    expect(policy).toBe(`default-src 'self'; script-src 'self' ${sha("own()")} ${sha("boot()")}; object-src 'none'`);
    expect(policy).not.toContain(sha("injected()"));
    expect(policy).not.toContain(sha("forged()"));
    expect(policy).not.toContain("nonce-");
  });
});
