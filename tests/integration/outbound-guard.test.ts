/**
 * Issue 22, findings 3 and 4: the table of address forms that must never be reached, refused for
 * webhooks and admins' feeds at creation (forms and API schemas) and at send/fetch time (the
 * delivery worker and the feed client), redirects to internal addresses, and DNS rebinding.
 * A receiver on 127.0.0.1 stands for the inside: it must never be hit. A second server on
 * 127.0.0.2 stands for a public host (the guard is told to treat that one address as public).
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { isIP } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import { createDeliveryWorker, failedDeliveries } from "../../app/.server/alerts/worker.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { deliveries, webhooks } from "../../app/.server/db/schema.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport } from "../../app/.server/mail/transport.ts";
import { forbiddenAddressReason } from "../../app/.server/net/addresses.ts";
import { outboundFetch, type Resolver } from "../../app/.server/net/outbound.ts";
import { feedInputSchema } from "../../app/.server/sources/admin.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

const log = createLogger("silent");
const publicStandIn = "127.0.0.2";
const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
<item><title>Circular 1/2026</title><link>https://www.cnmv.es/2</link><guid>cnmv-2</guid></item></channel></rss>`;

interface Hit {
  path: string;
  method: string;
}

async function listen(host: string, port: number, handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Test DNS: these names answer what is written; the rest is the system's. */
function testResolver(port: number) {
  const calls: string[] = [];
  let rebindAnswers = 0;
  const names: Record<string, string[]> = {
    "loopback.example.com": ["127.0.0.1"],
    "intranet.example.com": ["10.1.2.3"],
    "metadata.example.com": ["169.254.169.254"],
    "mapped.example.com": ["::ffff:127.0.0.1"],
    "mixed.example.com": [publicStandIn, "127.0.0.1"],
    "public.example.com": [publicStandIn],
  };
  const resolve: Resolver = async (host) => {
    calls.push(host);
    // Public at the first answer, loopback afterwards: a rebinding attacker's DNS.
    const answer = host === "rebind.example.com" ? [rebindAnswers++ === 0 ? publicStandIn : "127.0.0.1"] : names[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return answer.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }) as const);
  };
  return { resolve, calls, port };
}

const forbidden = (address: string) => (address === publicStandIn ? null : forbiddenAddressReason(address));

/** The table: each form names the inside (port: the internal receiver's). */
function addressForms(port: number): [string, string][] {
  return [
    ["IPv4 loopback", `http://127.0.0.1:${port}/in`],
    ["IPv4-mapped IPv6 (URL parser rewrites it to hex)", `http://[::ffff:127.0.0.1]:${port}/in`],
    ["IPv4-mapped cloud metadata", "http://[::ffff:169.254.169.254]/latest/meta-data/"],
    ["IPv4-compatible IPv6", `http://[::7f00:1]:${port}/in`],
    ["NAT64 (64:ff9b::/96) of loopback", `http://[64:ff9b::7f00:1]:${port}/in`],
    ["local-use NAT64 (64:ff9b:1::/48)", "http://[64:ff9b:1::a00:1]/in"],
    ["6to4 (2002::/16) of loopback", `http://[2002:7f00:1::1]:${port}/in`],
    ["Teredo (2001::/32)", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/in"],
    ["benchmarking 198.18.0.0/15", "http://198.18.0.1/in"],
    ["decimal IPv4", `http://2130706433:${port}/in`],
    ["octal IPv4", `http://0177.0.0.1:${port}/in`],
    ["hex IPv4", `http://0x7f.0.0.1:${port}/in`],
    ["short IPv4", `http://127.1:${port}/in`],
    ["percent-encoded IPv4", `http://%31%32%37.0.0.1:${port}/in`],
    ["trailing dot", `http://127.0.0.1.:${port}/in`],
    ["uppercase hex IPv6", `http://[::FFFF:7F00:1]:${port}/in`],
    ["IPv6 loopback", `http://[::1]:${port}/in`],
    ["IPv6 zone id", "http://[fe80::1%25eth0]/in"],
    ["IPv6 link-local", "http://[fe80::1]/in"],
    ["IPv6 unique-local", "http://[fd00::1]/in"],
    ["IPv6 site-local", "http://[fec0::1]/in"],
    ["IPv6 multicast", "http://[ff02::1]/in"],
    ["IPv6 documentation", "http://[2001:db8::1]/in"],
    ["IPv6 unspecified", `http://[::]:${port}/in`],
    ["IPv4 unspecified (connects locally)", `http://0.0.0.0:${port}/in`],
    ["private 10/8", "http://10.0.0.1/in"],
    ["private 172.16/12", "http://172.16.0.1/in"],
    ["private 192.168/16", "http://192.168.1.1/in"],
    ["CGNAT 100.64/10", "http://100.64.0.1/in"],
    ["link-local metadata", "http://169.254.169.254/latest/meta-data/"],
    ["IETF 192.0.0/24", "http://192.0.0.1/in"],
    ["documentation 192.0.2/24", "http://192.0.2.1/in"],
    ["multicast", "http://224.0.0.1/in"],
    ["reserved 240/4", "http://240.0.0.1/in"],
    ["broadcast", "http://255.255.255.255/in"],
    ["localhost", `http://localhost:${port}/in`],
    ["a .localhost name", `http://app.localhost:${port}/in`],
    ["a single-label name", `http://intranet:${port}/in`],
    ["name resolving to loopback", `http://loopback.example.com:${port}/in`],
    ["name resolving to a private address", "http://intranet.example.com/in"],
    ["name resolving to the metadata address", "http://metadata.example.com/latest/meta-data/"],
    ["name resolving to a mapped IPv6 address", `http://mapped.example.com:${port}/in`],
    ["name resolving to a public and a private address", `http://mixed.example.com:${port}/in`],
  ];
}

/** Public URLs (the stand-in) that redirect inside: refused at fetch/send time, every hop checked. */
function redirectForms(port: number): [string, string][] {
  const to = (target: string) => `http://public.example.com:${port}/redirect?to=${encodeURIComponent(target)}`;
  return [
    ["redirect to loopback", to(`http://127.0.0.1:${port}/in`)],
    ["redirect to the mapped IPv6 form", to(`http://[::ffff:127.0.0.1]:${port}/in`)],
    ["redirect to decimal IPv4", to(`http://2130706433:${port}/in`)],
    ["redirect to a name resolving to loopback", to(`http://loopback.example.com:${port}/in`)],
    ["redirect to localhost", to(`http://localhost:${port}/in`)],
    ["redirect after redirect", to(to(`http://127.0.0.1:${port}/in`))],
  ];
}

describe("outbound guard: the table of address forms", () => {
  let database: Database;
  const inside: Hit[] = [];
  const outside: Hit[] = [];
  let internal: Awaited<ReturnType<typeof listen>>;
  let external: Awaited<ReturnType<typeof listen>>;
  let port = 0;

  beforeAll(async () => {
    database = await openMigratedDatabase();
    internal = await listen("127.0.0.1", 0, (req, res) => {
      inside.push({ path: req.url ?? "", method: req.method ?? "" });
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(rss);
    });
    port = internal.port;
    // The "public" host on the same port, so a rebinding that switched addresses would land inside.
    external = await listen(publicStandIn, port, (req, res) => {
      outside.push({ path: req.url ?? "", method: req.method ?? "" });
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/redirect") {
        res.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end();
        return;
      }
      req.resume();
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(rss);
    });
  });
  afterAll(async () => {
    await internal?.stop();
    await external?.stop();
    await database?.close();
  });

  it("refuses every form when a webhook or a feed is created (form and API schemas, es and en)", async () => {
    const { resolve } = testResolver(port);
    for (const [name, url] of addressForms(port)) {
      for (const lang of ["es", "en"] as const) {
        const hook = await webhookInputSchema(lang, { resolve }).safeParseAsync({ url });
        expect(hook.success, `webhook ${name}: ${url}`).toBe(false);
        expect(hook.error?.issues.map((issue) => issue.path.join("."))).toEqual(["url"]);
        const feed = await feedInputSchema(lang, { resolve }).safeParseAsync({ name: "Feed", url });
        expect(feed.success, `feed ${name}: ${url}`).toBe(false);
      }
    }
    const spanish = await webhookInputSchema("es", { resolve }).safeParseAsync({ url: "http://127.1/" });
    expect(spanish.error?.issues[0]?.message).toBe("La URL debe ser http(s) y pública.");
    // Public URLs pass (a name that does not resolve now is checked again at each send).
    for (const url of ["https://hooks.example.org/in", "https://[2a00:1450:4003:80f::200e]/in", "https://8.8.8.8/x"]) {
      expect((await webhookInputSchema("en", { resolve }).safeParseAsync({ url })).success, url).toBe(true);
    }
  });

  it("refuses every form and every redirect inside when a feed is fetched; a public feed is fetched", async () => {
    const { resolve } = testResolver(port);
    const clients = createSourceClients({
      urls: { boeApiUrl: "", eurlexUrl: "", cellarUrl: "", cellarSparqlUrl: "" },
      siteUrl: "http://localhost",
      perSecond: 1000,
      retries: 0,
      timeoutMs: 2000,
      feedPolicy: { allowPrivate: false, resolve, forbidden },
    });
    for (const [name, url] of [...addressForms(port), ...redirectForms(port)]) {
      const outcome = await clients.feed(url).then(
        () => "fetched",
        (error: Error) => error.message,
      );
      expect(outcome, `${name}: ${url}`).not.toBe("fetched");
      // Nothing of an internal answer (status, first bytes) in what the Sources page shows.
      expect(outcome).not.toMatch(/rss|HTTP 200|char/i);
    }
    expect(inside).toEqual([]);
    const fetched = await clients.feed(`http://public.example.com:${port}/feed.xml`);
    expect(fetched.value.map((entry) => entry.id)).toEqual(["cnmv-2"]);
    expect(outside.some((hit) => hit.path === "/feed.xml")).toBe(true);
    expect(inside).toEqual([]);
  });

  it("refuses every form and every redirect at send time (webhooks and chat), and nothing reaches the inside", async () => {
    const { resolve } = testResolver(port);
    const urls = [...addressForms(port), ...redirectForms(port)].map(([, url]) => url);
    const org = `org-${randomUUID()}`;
    for (const url of urls) {
      const id = randomUUID();
      await database.db
        .insert(webhooks)
        .values({ id, organizationId: org, url, secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdA==" });
      const body = {
        type: "document.matched",
        timestamp: new Date().toISOString(),
        data: { webhookId: id, document: {} },
      };
      await database.db.insert(deliveries).values([
        {
          id: randomUUID(),
          matchKey: `webhook:${id}`,
          channel: "webhook",
          recipient: id,
          organizationId: org,
          payload: { webhookId: id, body },
          // Past its window after one attempt: failures that are not refusals (the 302s) are dead too.
          giveUpAt: new Date(Date.now() + 1000),
        },
        {
          id: randomUUID(),
          matchKey: `chat:${id}`,
          channel: "chat",
          recipient: url,
          organizationId: org,
          payload: {
            url,
            format: "slack",
            language: "en",
            documentId: randomUUID(),
            profileId: randomUUID(),
            profileName: "P",
            title: "T",
            officialUrl: "https://www.boe.es/x",
            publishedOn: "2026-01-01",
          },
        },
      ]);
    }
    const worker = createDeliveryWorker({
      database,
      transport: createMailTransport({ dataDir: "/tmp", log }),
      mailFrom: "a@example.com",
      siteUrl: "https://regwatch.example",
      settings: { httpTimeoutMs: 2000, maxAttempts: 1 },
      log,
      outbound: { resolve, forbidden },
    });
    await worker.drain();
    await worker.stop();
    const failed = await failedDeliveries(database, org, 1000);
    expect(failed).toHaveLength(urls.length * 2);
    expect(failed.every((row) => row.status === "dead")).toBe(true);
    expect(inside).toEqual([]);
    // Redirects are never followed for webhooks: the stand-in answered 302 and that is a failure.
    expect(failed.filter((row) => row.lastError?.includes("redirect"))).toHaveLength(redirectForms(port).length * 2);
  });

  it("connects to the address it checked: a DNS answer that turns private after the check reaches nothing inside", async () => {
    const dns = testResolver(port);
    const send = outboundFetch({ allowPrivate: false, resolve: dns.resolve, forbidden }, { timeoutMs: 2000 });
    const before = outside.length;
    const response = await send(`http://rebind.example.com:${port}/hook`, { method: "POST", body: "{}" });
    expect(response.status).toBe(200);
    expect(dns.calls.filter((name) => name === "rebind.example.com")).toHaveLength(1);
    expect(outside.slice(before)).toEqual([{ path: "/hook", method: "POST" }]);
    // The next request resolves again and now gets loopback: refused, not connected.
    await expect(send(`http://rebind.example.com:${port}/hook`, { method: "POST", body: "{}" })).rejects.toThrow(
      /resolves to an address that is not public/,
    );
    expect(inside).toEqual([]);

    // The delivery worker and the feed client take the same path.
    const worker = testResolver(port);
    const org = `org-${randomUUID()}`;
    const id = randomUUID();
    await database.db.insert(webhooks).values({
      id,
      organizationId: org,
      url: `http://rebind.example.com:${port}/rebind-hook`,
      secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdA==",
    });
    await database.db.insert(deliveries).values({
      id: randomUUID(),
      matchKey: `webhook:${id}`,
      channel: "webhook",
      recipient: id,
      organizationId: org,
      payload: { webhookId: id, body: { type: "document.matched", timestamp: "", data: { webhookId: id } } },
      giveUpAt: new Date(Date.now() + 60_000),
    });
    const delivery = createDeliveryWorker({
      database,
      transport: createMailTransport({ dataDir: "/tmp", log }),
      mailFrom: "a@example.com",
      siteUrl: "https://regwatch.example",
      settings: { httpTimeoutMs: 2000 },
      log,
      outbound: { resolve: worker.resolve, forbidden },
    });
    await delivery.drain();
    await delivery.stop();
    expect(outside.filter((hit) => hit.path === "/rebind-hook")).toHaveLength(1);
    expect(inside).toEqual([]);
  });

  it("lets the operator's test receivers on loopback through with WEBHOOKS_ALLOW_PRIVATE_URLS=1 only", async () => {
    const open = outboundFetch({ allowPrivate: true }, { timeoutMs: 2000 });
    const response = await open(`http://127.0.0.1:${port}/allowed`, { method: "POST", body: "{}" });
    expect(response.status).toBe(200);
    expect(inside.splice(0)).toEqual([{ path: "/allowed", method: "POST" }]);
    const closed = outboundFetch({ allowPrivate: false }, { timeoutMs: 2000 });
    await expect(closed(`http://127.0.0.1:${port}/allowed`)).rejects.toThrow(/not a public address \(loopback\)/);
    expect(inside).toEqual([]);
  });
});
