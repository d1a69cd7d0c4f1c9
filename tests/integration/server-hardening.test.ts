/** Headers, caching, compression, Origin checks and shutdown of the production server. */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot, type RunningServer, startServer } from "../support/server";

const ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

function get(pathname: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${pathname}`, { redirect: "manual", headers: { "user-agent": ua, ...headers } });
}

/** Raw HTTP over a socket, for requests fetch() refuses to send. */
function raw(request: string | Buffer, { delayMs = 0 } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("end", () => resolve(answer));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
    socket.on("connect", () => {
      if (delayMs === 0) socket.write(request);
      else setTimeout(() => socket.write(request), delayMs);
    });
  });
}

describe("security headers on pages", () => {
  /** Inline scripts a browser runs (JSON-LD is data, outside the CSP). */
  const inlineScripts = (html: string) =>
    [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)]
      .map((m) => ({ attributes: m[1] ?? "", body: m[2] ?? "" }))
      .filter((script) => !script.attributes.includes('type="application/ld+json"'));

  it("sends an enforced CSP: a fresh nonce on each rendered page, on every script the app renders", async () => {
    // A query keeps the page out of the shared cache: rendered for this request.
    const pages = await Promise.all([get("/en?a=1"), get("/en?a=2")]);
    const nonces: string[] = [];
    for (const response of pages) {
      const csp = response.headers.get("content-security-policy") ?? "";
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]{22,})'(;|$)/.exec(csp)?.[1];
      expect(nonce, csp).toBeDefined();
      nonces.push(nonce ?? "");
      const scripts = inlineScripts(await response.text());
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script.attributes).toContain(`nonce="${nonce}"`);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).toContain("base-uri 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain("upgrade-insecure-requests");
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("serves a cached page with the hashes of the app's own scripts instead of a shared nonce", async () => {
    await get("/en");
    const response = await get("/en");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).not.toContain("'nonce-");
    const scripts = inlineScripts(await response.text()).filter((script) => script.body);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const hash = createHash("sha256").update(script.body).digest("base64");
      expect(csp).toContain(`'sha256-${hash}'`);
    }
  });

  it("sends the other headers and no X-Powered-By or HSTS on plain http", async () => {
    const response = await get("/");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(response.headers.get("permissions-policy")).toContain("camera=()");
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("sends HSTS and upgrade-insecure-requests when SITE_URL is https", async () => {
    const https = await startServer({ env: { SITE_URL: "https://www.example.es" } });
    try {
      const response = await fetch(`${https.url}/en`, { headers: { "user-agent": ua } });
      expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(response.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
      expect(await response.text()).toContain('<link rel="canonical" href="https://www.example.es/en"/>');
    } finally {
      await https.stop();
    }
  }, 120_000); // a second server starts inside the test: slow on a busy machine
});

describe("caching and compression", () => {
  const assetDir = path.join(projectRoot, "build/client/assets");
  // The largest script: small files are not worth precompressing.
  const script = readdirSync(assetDir)
    .filter((name) => name.endsWith(".js"))
    .sort((a, b) => statSync(path.join(assetDir, b)).size - statSync(path.join(assetDir, a)).size)[0];

  it("serves hashed assets for a year, immutable, precompressed by Accept-Encoding", async () => {
    const identity = await get(`/assets/${script}`);
    expect(identity.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const original = Buffer.from(await identity.arrayBuffer());
    const br = await get(`/assets/${script}`, { "accept-encoding": "gzip, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    const gz = await get(`/assets/${script}`, { "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    // fetch() decodes; the raw socket shows the bytes sent.
    const rawBr = await raw(
      `GET /assets/${script} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\nConnection: close\r\n\r\n`,
    );
    const body = Buffer.from(rawBr.slice(rawBr.indexOf("\r\n\r\n") + 4), "latin1");
    expect(brotliDecompressSync(body).equals(original)).toBe(true);
    const rawGz = await raw(
      `GET /assets/${script} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`,
    );
    expect(gunzipSync(Buffer.from(rawGz.slice(rawGz.indexOf("\r\n\r\n") + 4), "latin1")).equals(original)).toBe(true);
  });

  it("revalidates HTML with an ETag and a short cache policy", async () => {
    const first = await get("/en", { "accept-encoding": "br" });
    // Browsers revalidate every time; shared caches (the server's page cache) may keep it a second.
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=1");
    expect(first.headers.get("vary")).toContain("Accept-Encoding");
    expect(first.headers.get("content-encoding")).toBe("br");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get("/en", { "if-none-match": etag ?? "" });
    // The page is re-rendered at most once a second (its form token changes), so either answer is right.
    expect([200, 304]).toContain(again.status);
    if (again.status === 304) expect(await again.text()).toBe("");
  });

  it("says that / varies by cookie and language", async () => {
    const response = await get("/", { "accept-encoding": "gzip" });
    expect(response.headers.get("vary")).toMatch(/Cookie/);
    expect(response.headers.get("vary")).toMatch(/Accept-Language/);
    expect(response.headers.get("vary")).toMatch(/Accept-Encoding/);
  });

  it("never serves the cached Spanish page to an English visitor", async () => {
    await get("/");
    const response = await get("/", { cookie: "locale=en" });
    expect(response.status).toBe(302);
  });

  it("never caches the platform, the API, or a visitor with a session cookie", async () => {
    for (const pathname of ["/app", "/app/login", "/api/v1/openapi.json", "/api/v1/nothing"]) {
      const response = await get(pathname);
      const policy = response.headers.get("cache-control") ?? "";
      expect(policy, pathname).toMatch(/no-store|private/);
      expect(policy, pathname).not.toMatch(/public|s-maxage/);
    }
    // The shared copy of /en carries its render's ETag; a signed-in visitor's page is rendered for them.
    const shared = await get("/en");
    const again = await get("/en");
    expect(again.headers.get("etag")).toBe(shared.headers.get("etag"));
    const [a, b] = await Promise.all([
      get("/en", { cookie: "locale=en; session_token=abc" }),
      get("/en", { cookie: "locale=en; session_token=abc" }),
    ]);
    expect(a.headers.get("content-security-policy")).toContain("'nonce-");
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
    const withToken = await get("/en", { authorization: "Bearer x" });
    expect(withToken.headers.get("content-security-policy")).toContain("'nonce-");
  });

  it("keeps static lookups inside the client folder", async () => {
    for (const attempt of ["/assets/../../package.json", "/assets/%2e%2e/%2e%2e/package.json", "/../server/main.ts"]) {
      const answer = await raw(`GET ${attempt} HTTP/1.1\r\nHost: x\r\nUser-Agent: ${ua}\r\nConnection: close\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 404/);
      expect(answer).not.toContain('"devDependencies"');
    }
  });
});

describe("requests from other origins", () => {
  it("refuses a POST whose Origin is another site", async () => {
    const response = await fetch(`${server.url}/mail/send`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ statusCode: 403 });
  });

  it("refuses a cross-site POST without Origin", async () => {
    const response = await fetch(`${server.url}/mail/send`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(403);
  });

  it("lets same-origin posts and Origin-less clients through", async () => {
    for (const headers of [{ origin: server.url }, {}] as Record<string, string>[]) {
      const response = await fetch(`${server.url}/mail/send`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: "{}",
      });
      expect(response.status).not.toBe(403);
    }
  });
});

describe("a browser that addressed the server by another name than SITE_URL's", () => {
  const setupPath = () => new URL(readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim()).pathname;
  /** The setup form posted by a browser that opened http://<host>, with its own Origin. */
  function postSetup(host: string): Promise<string> {
    const body = new URLSearchParams({
      organizationName: "Org Host",
      name: "Ana",
      email: "ana@example.com",
      password: "correct horse battery staple 42",
    }).toString();
    return raw(
      `POST ${setupPath()} HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nUser-Agent: ${ua}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
  }

  it("another host name is not taken for the site: the form is refused", async () => {
    const answer = await postSetup(`evil.example:${server.port}`);
    expect(answer.slice(0, 200)).not.toMatch(/^HTTP\/1\.1 30[23]/);
  });

  it("localhost where SITE_URL says 127.0.0.1: the setup form goes through", async () => {
    // Both name this machine; the server's Origin check accepts it, and the app must not refuse it.
    const answer = await postSetup(`localhost:${server.port}`);
    expect(answer.slice(0, 200)).toMatch(/^HTTP\/1\.1 30[23]/);
    expect(answer).toMatch(/\r\nLocation: \/app\/mfa\r\n/i);
  });
});

describe("bad requests at the HTTP layer", () => {
  it("answers oversized headers with 431 and malformed requests with 400", async () => {
    expect(await raw(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 431/);
    expect(await raw("GARBAGE\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(`GET / HTTP/1.1\r\nHost: x\r\nX-Inject: a\rb\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
  });

  it("refuses a declared body over 64 KB before reading it", async () => {
    const answer = await raw(
      "POST /mail/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 70000\r\nConnection: close\r\n\r\n{",
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('"statusCode":413');
  });

  it("answers odd bytes in paths with a 404 or 400, never a 5xx", async () => {
    for (const target of ["/%00", "/%FF%FE", "/en/%00%0d%0aSet-Cookie:x=1", "/%C0%AF", "/?%%%"]) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: x\r\nUser-Agent: ${ua}\r\nConnection: close\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 (200|400|404)/);
      expect(answer).not.toMatch(/^Set-Cookie: x=1/m);
    }
    const binary = Buffer.concat([
      Buffer.from("GET /"),
      Buffer.from([0xff, 0xfe, 0x80]),
      Buffer.from(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
    ]);
    expect(await raw(binary)).toMatch(/^HTTP\/1\.1 (400|404)/);
  });

  it("drops a client that sends its headers too slowly (slow loris)", async () => {
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(server.port, "127.0.0.1");
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1");
      });
      socket.on("close", () => resolve(received));
      socket.write("GET / HTTP/1.1\r\nHost: x\r\n");
      const drip = setInterval(() => {
        if (socket.writable) socket.write("X-Slow: 1\r\n");
        else clearInterval(drip);
      }, 1_000);
      socket.on("close", () => clearInterval(drip));
    });
    expect(answer === "" || /^HTTP\/1\.1 408/.test(answer)).toBe(true);
    expect(Date.now() - started).toBeLessThan(14_000);
  }, 20_000);

  it("still serves pages after all of that", async () => {
    expect((await get("/en")).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
