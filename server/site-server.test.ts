/**
 * Every answer the server writes itself, on each of its paths (a cached page, a rendered one,
 * health, limits, redirects, a failure), starts with the security headers and this request's
 * own id, each once; once shutdown has begun, it also closes the connection. These headers are
 * handed from the request listener to each path (server/site-server.ts, `Lead`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../app/.server/app.ts";
import type { Config } from "../app/.server/config.ts";
import { createLogger } from "../app/.server/logger.ts";
import { createSiteServer, type SiteServer } from "./site-server.ts";

let server: SiteServer;
let origin: string;
let shuttingDown = false;
let renders = 0;
/** One kept-alive connection, as a browser's: the server says "keep-alive" unless it is stopping. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

const app: Pick<App, "config" | "handle" | "publicCookies"> = {
  config: { siteUrl: "http://127.0.0.1:1", trustProxy: 0 } as Config,
  publicCookies: [],
  async handle(request) {
    const { pathname } = new URL(request.url);
    if (pathname === "/boom") throw new Error("the app failed");
    if (pathname === "/cached") {
      renders++;
      return new Response(`<!doctype html><p>cached page, render ${renders}</p>`, {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=0, s-maxage=60" },
      });
    }
    return new Response("<!doctype html><p>a page</p>", { headers: { "content-type": "text/html; charset=utf-8" } });
  },
};

interface Answer {
  status: number;
  rawHeaders: string[];
}

function get(path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${origin}${path}`, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** The values of one header, however often it came. */
function values(answer: Answer, name: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    if (answer.rawHeaders[i]?.toLowerCase() === name) found.push(answer.rawHeaders[i + 1] ?? "");
  }
  return found;
}

beforeAll(async () => {
  server = createSiteServer({
    app,
    log: createLogger("silent"),
    isReady: async () => true,
    isShuttingDown: () => shuttingDown,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  agent.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const paths: Array<[string, string, number]> = [
  ["a page the cache keeps, first render", "/cached", 200],
  ["the same page from the cache", "/cached", 200],
  ["a page rendered per request", "/page", 200],
  ["health", "/healthz", 200],
  ["a URL over the length limit", `/${"a".repeat(10_000)}`, 414],
  ["a target that is not origin-form", "//elsewhere", 400],
  ["a trailing slash", "/page/", 308],
  ["the app failing", "/boom", 500],
];

describe("the headers every answer starts with", () => {
  it.each(paths)("%s", async (_what, path, status) => {
    const answers = [await get(path), await get(path)];
    for (const answer of answers) {
      expect(answer.status).toBe(status);
      expect(values(answer, "x-content-type-options")).toEqual(["nosniff"]);
      expect(values(answer, "x-frame-options")).toEqual(["DENY"]);
      expect(values(answer, "x-request-id")).toHaveLength(1);
      expect(values(answer, "connection")).toEqual(["keep-alive"]);
    }
    // Each request its own id, also when both answers came from one cached copy.
    expect(values(answers[0] as Answer, "x-request-id")).not.toEqual(values(answers[1] as Answer, "x-request-id"));
  });

  it("the cached page was rendered once for all its requests", async () => {
    await get("/cached");
    expect(renders).toBe(1);
  });

  it("once shutdown has begun, each answer closes its connection, the cached page's too", async () => {
    shuttingDown = true;
    try {
      for (const path of ["/cached", "/page", "/page/", "/boom"]) {
        const answer = await get(path);
        expect(values(answer, "connection"), path).toEqual(["close"]);
        expect(values(answer, "x-request-id"), path).toHaveLength(1);
      }
    } finally {
      shuttingDown = false;
    }
  });
});

describe("the origin check's one exception (decision 0136)", () => {
  function post(path: string, from: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${origin}${path}`,
        {
          method: "POST",
          agent: false,
          headers: { origin: from, "content-type": "application/x-www-form-urlencoded" },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end("SAMLResponse=x");
    });
  }
  const acs = "/app/sso/saml/0b6c1c1e-2f64-4c57-9a51-5d2b8c0f3a11/acs";

  it("lets an IdP's cross-site POST reach the SAML ACS, and nothing else", async () => {
    expect(await post(acs, "https://idp.example")).toBe(200);
    expect(await post(acs, "null")).toBe(200);
    expect(await post("/page", "https://idp.example")).toBe(403);
    expect(await post(`${acs}x`, "https://idp.example")).toBe(403);
    expect(await post("/app/sso/saml/not-a-provider/acs", "https://idp.example")).toBe(403);
    expect(await post("/app/sso/oidc/callback", "https://idp.example")).toBe(403);
  });
});
