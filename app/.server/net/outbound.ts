/**
 * The one outbound guard: every request the server makes to an address a user typed (webhooks,
 * Slack/Teams channels, admins' RSS/Atom feeds) goes through outboundFetch. A URL is checked in
 * its parsed form (any IPv4 notation and IPv6 spelling end as one canonical address), a name is
 * resolved once, every address it resolves to is checked, and the socket connects to the address
 * that was checked (the lookup hook hands only checked addresses to the connection, so a second
 * DNS answer cannot rebind it). Redirects are followed by hand, each hop checked again; answers
 * are cut at a size limit and the whole exchange at a timeout.
 * `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE_URLS=1) lets tests reach receivers on loopback.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { forbiddenAddressReason } from "./addresses.ts";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name → addresses; dns.lookup by default, injected by tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  /** WEBHOOKS_ALLOW_PRIVATE_URLS=1: loopback and private addresses allowed (tests only). */
  allowPrivate: boolean;
  resolve?: Resolver | undefined;
  /**
   * Tests: the reason an address is refused (default: forbiddenAddressReason), so that a loopback
   * server can stand in for a public host.
   */
  forbidden?: ((address: string) => string | null) | undefined;
}

/** A request the guard refused: never retried, and it says nothing of what is behind the address. */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutboundRefused";
  }
}

const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  }));

/** Names that mean "this machine or its network" whatever DNS says. */
function isLocalName(host: string): boolean {
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".local") ||
    host.endsWith(".internal") ||
    host.endsWith(".home.arpa") ||
    !host.includes(".")
  );
}

/** The URL's host without IPv6 brackets or a trailing dot. */
export function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * What can be told without DNS: an absolute http(s) URL without credentials whose host is not a
 * special-purpose address in any notation, nor a local name.
 */
export function checkOutboundUrl(
  value: string | URL,
  policy: Pick<OutboundPolicy, "allowPrivate" | "forbidden">,
): UrlCheck {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: "not an absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "not http(s)" };
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL" };
  if (policy.allowPrivate) return { ok: true, url };
  const host = bareHost(url);
  if (isIP(host)) {
    const reason = (policy.forbidden ?? forbiddenAddressReason)(host);
    return reason ? { ok: false, reason: `${host} is not a public address (${reason})` } : { ok: true, url };
  }
  if (isLocalName(host)) return { ok: false, reason: `${host} is a local name` };
  return { ok: true, url };
}

/** Resolves `hostname` and checks every address; refuses when any one is not public. */
export async function resolveChecked(hostname: string, policy: OutboundPolicy): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host);
  const addresses = literal
    ? [{ address: host, family: literal as 4 | 6 }]
    : await (policy.resolve ?? systemResolver)(host);
  if (addresses.length === 0) throw Object.assign(new Error(`${host} did not resolve`), { code: "ENOTFOUND" });
  const forbidden = policy.forbidden ?? forbiddenAddressReason;
  if (!policy.allowPrivate && addresses.some((entry) => forbidden(entry.address) !== null)) {
    // The resolved address is not named: error texts reach admins' pages.
    throw new OutboundRefused(`refused: ${host} resolves to an address that is not public`);
  }
  return addresses;
}

/**
 * Creation-time validation (forms and the API): the URL check plus, for a name, its DNS answer.
 * A name that does not resolve now passes (it is checked again at every send).
 */
export async function validateOutboundUrl(
  value: string,
  policy: OutboundPolicy,
  options: { timeoutMs?: number } = {},
): Promise<UrlCheck> {
  const checked = checkOutboundUrl(value, policy);
  if (!checked.ok || policy.allowPrivate) return checked;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      resolveChecked(bareHost(checked.url), policy),
      new Promise((resolve) => {
        timer = setTimeout(resolve, options.timeoutMs ?? 3000);
      }),
    ]);
    return checked;
  } catch (error) {
    return error instanceof OutboundRefused ? { ok: false, reason: error.message } : checked;
  } finally {
    clearTimeout(timer);
  }
}

/** The lookup the socket uses: only addresses that passed the check ever reach connect(). */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveChecked(hostname, policy).then(
      (addresses) => {
        const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
        const usable = family ? addresses.filter((entry) => entry.family === family) : addresses;
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error(`${hostname}: no address of family ${family}`), { code: "ENOTFOUND" }), "");
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

export interface OutboundOptions {
  /** Whole exchange (connect, redirects, answer), unless the caller's signal ends it first. */
  timeoutMs?: number;
  /** Answers longer than this fail (the connection is cut). */
  maxBytes?: number;
  /** Hops followed with redirect: "follow". */
  maxRedirects?: number;
}

interface RawAnswer {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * fetch() through the guard. Takes the subset of RequestInit the server uses (method, headers,
 * string body, redirect, signal) and answers a standard Response.
 */
export function outboundFetch(policy: OutboundPolicy, options: OutboundOptions = {}) {
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 5;
  const lookup = guardedLookup(policy);

  function once(url: URL, init: RequestInit, signal: AbortSignal): Promise<RawAnswer> {
    const checked = checkOutboundUrl(url, policy);
    if (!checked.ok) return Promise.reject(new OutboundRefused(`refused: ${checked.reason}`));
    const host = bareHost(url);
    const client = url.protocol === "https:" ? https : http;
    return new Promise<RawAnswer>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const request = client.request({
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: init.method ?? "GET",
        headers: Object.fromEntries(new Headers(init.headers).entries()),
        // A fresh connection per request: a pooled socket would outlive the policy that checked it.
        agent: false,
        lookup,
        // TLS checks the certificate against the name, not the address connected to.
        ...(isIP(host) ? {} : { servername: host }),
      });
      const abort = () => request.destroy(signal.reason as Error);
      signal.addEventListener("abort", abort, { once: true });
      request.on("error", (error) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      });
      request.on("response", (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            request.destroy(new Error(`answer over ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          signal.removeEventListener("abort", abort);
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? "",
            headers: response.headers,
            body: Buffer.concat(chunks),
          });
        });
        response.on("error", reject);
      });
      if (typeof init.body === "string") request.end(init.body);
      else request.end();
    });
  }

  return async function guardedFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
    if (init.body !== undefined && init.body !== null && typeof init.body !== "string")
      throw new TypeError("outboundFetch takes string bodies only");
    const signals = [AbortSignal.timeout(options.timeoutMs ?? 20_000)];
    if (init.signal) signals.push(init.signal);
    const signal = AbortSignal.any(signals);
    let url = new URL(input);
    let current = init;
    for (let hop = 0; ; hop++) {
      const answer = await once(url, current, signal);
      const location = answer.headers.location;
      if (redirectStatuses.has(answer.status) && location && init.redirect !== "manual") {
        if (init.redirect === "error") throw new Error(`redirect (HTTP ${answer.status}) not followed`);
        if (hop >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects`);
        url = new URL(location, url);
        const method = (current.method ?? "GET").toUpperCase();
        if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === "POST")) {
          current = { ...current, method: "GET", body: null };
        }
        continue;
      }
      return toResponse(answer);
    }
  };
}

export type OutboundFetch = ReturnType<typeof outboundFetch>;

function toResponse(answer: RawAnswer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const empty = answer.status === 204 || answer.status === 205 || answer.status === 304;
  const status = answer.status >= 200 && answer.status <= 599 ? answer.status : 502;
  return new Response(empty ? null : new Uint8Array(answer.body), { status, statusText: answer.statusText, headers });
}
