/** The contract's HTTP table and locale rules, against the built production server. */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../support/server";

let server: RunningServer;
const browserUa = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, { redirect: "manual", headers: { "user-agent": browserUa, ...headers } });
}

/** A request with the path exactly as written: fetch() would normalise it. */
function rawGet(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1", () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: ${browserUa}\r\nConnection: close\r\n\r\n`);
    });
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("home pages", () => {
  it("serves Spanish at / with lang=es and writes the locale cookie", async () => {
    const response = await get("/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<html lang="es"/);
    expect(response.headers.get("set-cookie")).toBe("locale=es; Max-Age=31536000; Path=/; SameSite=Lax");
  });

  it("serves English at /en with lang=en and the cookie", async () => {
    const response = await get("/en");
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/<html lang="en"/);
    expect(response.headers.get("set-cookie")).toBe("locale=en; Max-Age=31536000; Path=/; SameSite=Lax");
  });

  it("has canonical and hreflang alternates for es, en and x-default", async () => {
    const html = await (await get("/en")).text();
    expect(html).toContain(`<link rel="canonical" href="${server.url}/en"/>`);
    expect(html).toContain(`<link rel="alternate" hrefLang="es" href="${server.url}/"/>`);
    expect(html).toContain(`<link rel="alternate" hrefLang="en" href="${server.url}/en"/>`);
    expect(html).toContain(`<link rel="alternate" hrefLang="x-default" href="${server.url}/"/>`);
  });

  it("redirects /es to / permanently, keeping the query", async () => {
    const response = await get("/es?utm_source=x");
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("/?utm_source=x");
  });
});

describe("locale detection at /", () => {
  it.each([
    [{ cookie: "locale=en" }, 302],
    [{ cookie: "locale=es", "accept-language": "en" }, 200],
    [{ "accept-language": "en-US,en;q=0.9,es;q=0.8" }, 302],
    [{ "accept-language": "en;q=0.3,es;q=0.9" }, 200],
    [{ "accept-language": "fr-FR,fr;q=0.9" }, 200],
    [{ cookie: "locale=fr", "accept-language": "en" }, 302],
    [{ cookie: "%%%;;==locale", "accept-language": ";;q=x,,," }, 200],
    [{ "accept-language": "x".repeat(3000) }, 200],
  ])("%# %j → %i", async (headers, status) => {
    const response = await get("/", headers);
    expect(response.status).toBe(status);
    if (status === 302) expect(response.headers.get("location")).toBe("/en");
    else expect(await response.text()).toMatch(/<html lang="es"/);
  });

  it("the switch back to Spanish overrides an English cookie", async () => {
    const response = await get("/?locale=es", { cookie: "locale=en" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    expect(response.headers.get("set-cookie")).toMatch(/^locale=es; Max-Age=31536000; Path=\/; SameSite=Lax/);
  });

  it("does not detect anywhere but /", async () => {
    const response = await get("/en", { cookie: "locale=es", "accept-language": "es" });
    expect(response.status).toBe(200);
  });
});

describe("resources", () => {
  it.each([
    ["/sitemap.xml", "/"],
    ["/en/sitemap.xml", "/en"],
  ])("%s lists its locale's pages with absolute URLs and alternates", async (path, home) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await response.text();
    expect(xml).toContain(`<loc>${server.url}${home}</loc>`);
    expect(xml).toContain(`hreflang="x-default" href="${server.url}/"`);
    expect(xml.match(/<url>/g)?.length).toBe(3);
  });

  it("robots.txt allows all and names both sitemaps", async () => {
    const text = await (await get("/robots.txt")).text();
    expect(text).toContain("Allow: /");
    expect(text).toContain(`Sitemap: ${server.url}/sitemap.xml`);
    expect(text).toContain(`Sitemap: ${server.url}/en/sitemap.xml`);
  });

  it("/healthz answers 200 with JSON", async () => {
    const response = await get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});

describe("unknown paths", () => {
  it.each(["/fr", "/en/anything", "/es/whatever", "/%E0%A4%A", "/..%2f..%2fetc%2fpasswd", "/a/b/c/d/e", "/index.php"])(
    "%s is a 404 page",
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain("Page Not Found");
    },
  );

  it("says which path was not found and keeps the visitor's language", async () => {
    const html = await (await get("/en/nothing-here")).text();
    expect(html).toContain("Page not found: /en/nothing-here");
    expect(html).toMatch(/<html lang="en"/);
  });

  it.each([
    ["/fr", "es", "Página no encontrada · Vigía Normativo"],
    ["/en/x", "en", "Page not found · Vigía Normativo"],
  ])("%s has a title in <head> naming the error, in a %s page", async (path, lang, title) => {
    const html = await (await get(path)).text();
    expect(html).toMatch(new RegExp(`<html lang="${lang}"`));
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain(`<title>${title}</title>`);
    expect(head).toContain('<meta name="robots" content="noindex"/>');
    // The spec's English title is marked as English on a Spanish page (WCAG 3.1.2).
    if (lang === "es") expect(html).toMatch(/<h1 id="error-title" lang="en">Page Not Found<\/h1>/);
  });

  it("the other error view has a title too", async () => {
    const response = await fetch(`${server.url}/en`, {
      method: "POST",
      headers: { "user-agent": browserUa, "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: "a=1",
    });
    const html = await response.text();
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain("<title>Error 405 · Vigía Normativo</title>");
  });

  it("a trailing slash redirects to the page without it", async () => {
    const response = await get("/en/?x=1");
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("/en?x=1");
  });

  it.each(["//evil.example/", "/\\evil.example/", "/%2F/../\\x"])(
    "refuses %s rather than redirect off the site",
    async (path) => {
      const answer = await rawGet(path);
      expect(answer).toMatch(/^HTTP\/1\.1 (400|404)/);
      expect(answer).not.toMatch(/^location:.*evil/im);
    },
  );

  it("a very long path is refused cleanly", async () => {
    const response = await get(`/${"a".repeat(5000)}`);
    expect(response.status).toBe(414);
    const longButAllowed = await get(`/${"b".repeat(3000)}`);
    expect(longButAllowed.status).toBe(404);
  });

  it("crawlers get the status without the error page, and the error is logged", async () => {
    const response = await fetch(`${server.url}/nope-for-bots`, {
      headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
    });
    expect(response.status).toBe(404);
    const body = await response.text();
    expect(body).not.toContain("<html");
    // The log line crosses the child's stdout pipe: wait for it rather than for a fixed time.
    const logged = () => server.logs().find((line) => line.msg === "error page not rendered for a crawler");
    await expect.poll(logged, { timeout: 10_000 }).toMatchObject({ status: 404, level: 40 });
    expect(typeof logged()?.reqId).toBe("string");
  });

  it("a POST to a page without an action shows the other error view", async () => {
    const response = await fetch(`${server.url}/`, {
      method: "POST",
      headers: { "user-agent": browserUa, "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: "a=1",
    });
    expect(response.status).toBe(405);
    const html = await response.text();
    expect(html).toContain('data-status="405"');
    expect(html).not.toContain("Page Not Found");
  });
});

describe("logs", () => {
  it("write one JSON line with a request id per request", async () => {
    const response = await get("/robots.txt");
    const requestId = response.headers.get("x-request-id");
    const line = () => server.logs().find((entry) => entry.reqId === requestId && entry.msg === "request");
    await expect.poll(line, { timeout: 10_000 }).toMatchObject({ method: "GET", url: "/robots.txt", status: 200 });
  });
});
