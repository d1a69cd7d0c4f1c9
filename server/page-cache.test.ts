import { describe, expect, it } from "vitest";
import { createPageCache, isCachedPage } from "./page-cache.ts";

const page = (text: string) => ({ status: 200, headers: {}, body: Buffer.from(text), etag: `"${text}"` });

describe("page cache", () => {
  it("renders once per TTL and shares a render between concurrent visitors", async () => {
    let now = 0;
    let renders = 0;
    const cache = createPageCache(1000, () => now);
    const render = async () => page(`v${++renders}`);
    const [a, b] = await Promise.all([cache.get("/", render), cache.get("/", render)]);
    expect(renders).toBe(1);
    expect(a.body.toString()).toBe("v1");
    expect(b).toBe(a);
    expect(isCachedPage(a) && a.br.length > 0 && a.gzip.length > 0).toBe(true);
    now = 999;
    expect((await cache.get("/", render)).body.toString()).toBe("v1");
    expect(renders).toBe(1);
  });

  it("serves a copy expired by less than a TTL while refreshing, never an older one", async () => {
    let now = 0;
    let renders = 0;
    const cache = createPageCache(1000, () => now);
    const render = async () => page(`v${++renders}`);
    await cache.get("/", render);
    now = 1500;
    expect((await cache.get("/", render)).body.toString()).toBe("v1");
    await new Promise((resolve) => setTimeout(resolve, 20));
    now = 10_000;
    expect((await cache.get("/", render)).body.toString()).toBe("v3");
  });

  it("does not keep error pages, and a failed refresh reaches nobody unhandled", async () => {
    let now = 0;
    const cache = createPageCache(1000, () => now);
    const notFound = await cache.get("/x", async () => ({ ...page("404"), status: 404 }));
    expect(isCachedPage(notFound)).toBe(false);
    await cache.get("/", async () => page("ok"));
    now = 1200;
    const stale = await cache.get("/", async () => {
      throw new Error("render failed");
    });
    expect(stale.body.toString()).toBe("ok");
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
});
