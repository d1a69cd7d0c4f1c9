/**
 * Issue 20, defect 1: a HEAD request must never change what a GET returns. Uptime monitors
 * and link checkers send HEAD all day; when one of them is the request that fills (or
 * refills) the page cache, the GETs that follow must still get the whole page, and HEAD
 * must announce the same ETag and Content-Length as the GET it stands for.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../support/server";

let server: RunningServer;
const browserUa = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function request(method: "GET" | "HEAD", path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The headers a visitor whose language is the page's own sends (so / answers, not redirects). */
function visitorHeaders(path: string, encoding: string): Record<string, string> {
  const english = path === "/en" || path.startsWith("/en/");
  return {
    "user-agent": browserUa,
    "accept-language": english ? "en-US,en;q=0.9" : "es-ES,es;q=0.9",
    "accept-encoding": encoding,
  };
}

/** Every public page the sitemaps list, as paths. */
async function sitemapPaths(): Promise<string[]> {
  const paths = new Set<string>();
  for (const sitemap of ["/sitemap.xml", "/en/sitemap.xml"]) {
    const xml = (await request("GET", sitemap, { "user-agent": browserUa })).body.toString("utf8");
    for (const [, loc] of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) paths.add(new URL(loc as string).pathname);
  }
  return [...paths];
}

beforeAll(async () => {
  // A fresh server: no page has been rendered yet, so the HEADs below are the ones that fill the cache.
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("HEAD then GET on every page the shared cache may keep", () => {
  it("lists / and /en among the sitemap's pages", async () => {
    const paths = await sitemapPaths();
    expect(paths).toEqual(expect.arrayContaining(["/", "/en"]));
  });

  it("a HEAD that fills or refills the cache leaves every GET its whole page, with the HEAD's ETag and length", async () => {
    const paths = await sitemapPaths();
    const shareable: string[] = [];
    for (const path of paths) {
      const encodings = ["br", "gzip", "identity"];
      // First request for this page on this server: a HEAD, which fills the cache.
      let head = await request("HEAD", path, visitorHeaders(path, "br"));
      expect(head.status, `HEAD ${path}`).toBe(200);
      expect(head.body.length).toBe(0);
      const cacheControl = String(head.headers["cache-control"] ?? "");
      if (!/s-maxage=\d+/.test(cacheControl)) continue;
      shareable.push(path);
      // Pairs of HEAD and GET until the cached copy has been refilled by a HEAD at least twice
      // (its ETag changes every refill: the form's time trap is in the page).
      const etagsSeenByHead = new Set<string>();
      const deadline = Date.now() + 20_000;
      let pairs = 0;
      while (etagsSeenByHead.size < 3 || pairs < 3) {
        if (Date.now() > deadline) throw new Error(`HEAD ${path} never refilled the cache`);
        const encoding = encodings[pairs % encodings.length] as string;
        head = await request("HEAD", path, visitorHeaders(path, encoding));
        const get = await request("GET", path, visitorHeaders(path, encoding));
        pairs++;
        etagsSeenByHead.add(String(head.headers.etag));
        expect(get.status, `GET ${path} after HEAD`).toBe(200);
        expect(get.body.length, `GET ${path} after HEAD (${encoding}) has a body`).toBeGreaterThan(500);
        expect(Number(get.headers["content-length"])).toBe(get.body.length);
        expect(get.headers.etag).not.toBe('W/"2jmj7l5rSw0yVb_vlWAYkK_YBwk"'); // sha1 of ""
        expect(head.headers["content-length"], `HEAD ${path} announces a length`).not.toBe("0");
        if (get.headers.etag === head.headers.etag) {
          // The same copy: HEAD stands for this GET exactly.
          expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
          expect(head.headers["content-encoding"]).toBe(get.headers["content-encoding"]);
          expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
        }
      }
    }
    expect(shareable).toEqual(expect.arrayContaining(["/", "/en"]));
  }, 120_000);

  it("a HEAD of a page that is never shared announces the GET's length too", async () => {
    // /app/login is personal (never cached); HEAD must still describe the page a GET gets.
    const head = await request("HEAD", "/app/login", visitorHeaders("/app/login", "identity"));
    const get = await request("GET", "/app/login", visitorHeaders("/app/login", "identity"));
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).not.toBe("0");
    expect(Number(head.headers["content-length"])).toBeGreaterThan(500);
    expect(get.body.length).toBeGreaterThan(500);
  });
});
