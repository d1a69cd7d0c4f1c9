/**
 * The HTTP server: health, static files, limits, the Origin check and the page
 * cache, then every other request through the app's Fetch handler. It knows no
 * page of the app: what may be cached is what the routes' answers declare.
 */
import { createHash, randomBytes } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { App } from "../app/.server/app.ts";
import { negotiateLocale } from "../app/.server/locale.ts";
import type { Logger } from "../app/.server/logger.ts";
import { clientAddress, isSecureRequest } from "./client-address.ts";
import { compress, type Encoding, isCompressible, pickEncoding } from "./compression.ts";
import { limits } from "./limits.ts";
import { createPageCache, type HeaderMap, isCachedPage, type RenderedPage } from "./page-cache.ts";
import { baseSecurityHeaders, type SecurityOptions } from "./security-headers.ts";
import { loadStaticFiles, type StaticFile } from "./static-files.ts";

/** Connect-style middleware (Vite's dev server): calls next() when it does not answer. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export interface SiteServerOptions {
  app: Pick<App, "config" | "handle" | "publicCookies">;
  log: Logger;
  /** The built client files (production); absent in development, where `middleware` serves them. */
  clientDir?: string;
  /** Development: Vite in middleware mode, asked first. */
  middleware?: Middleware;
  /** Resolves true while the server and its database can take requests. */
  isReady: () => Promise<boolean>;
  /** Why writes are refused now (the embedded database's disk nearly full), or undefined. */
  writesRefused?: () => string | undefined;
  /** True once shutdown has begun: connections are closed after their response. */
  isShuttingDown?: () => boolean;
  /** Longest time the page cache keeps a page a route allows it to; 0 turns the cache off. */
  pageCacheTtlMs?: number;
}

export type SiteServer = http.Server & { settled(timeoutMs: number): Promise<void> };

/** The refusal's words while the disk is nearly full, in the reader's language (cookie, then Accept-Language). */
const diskFullMessage = {
  es: "El disco del servidor está casi lleno: no se guardan cambios hasta que haya espacio. Lo que ya está guardado sigue intacto y puedes consultarlo. Inténtalo de nuevo más tarde.",
  en: "The server's disk is nearly full: no changes are saved until there is space. What is already saved is intact and you can still read it. Please try again later.",
} as const;

/** Paths whose answers are personal or live: never served from or kept in the page cache. */
const privatePrefixes = ["/app", "/api"];

function isPrivatePath(pathname: string): boolean {
  return privatePrefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

export function createSiteServer(options: SiteServerOptions): SiteServer {
  const inFlight = new Set<Promise<void>>();
  const { app, log, isReady } = options;
  const { config } = app;
  const staticFiles = options.clientDir ? loadStaticFiles(options.clientDir) : new Map<string, StaticFile>();
  const security: SecurityOptions = { https: config.siteUrl.startsWith("https:") };
  const securityHeaders = flattenHeaders(baseSecurityHeaders(security));
  const origin = new URL(config.siteUrl).origin;
  const pageCacheTtlMs = options.pageCacheTtlMs ?? 1000;
  const pageCache = createPageCache(pageCacheTtlMs);
  const publicCookies = new Set(app.publicCookies);
  const logRequests = log.isLevelEnabled("info");
  function logRequest(req: IncomingMessage, res: ServerResponse, reqId: string, rawUrl: string, started: number) {
    log.info(
      {
        reqId,
        method: req.method,
        url: rawUrl.length > 300 ? rawUrl.slice(0, 300) : rawUrl,
        status: res.statusCode,
        ms: Math.round(performance.now() - started),
      },
      "request",
    );
  }
  // Request ids: this process's random prefix and a counter, unique across instances and cheap.
  const instanceId = randomBytes(6).toString("base64url");
  let requestCount = 0;

  /** A request the shared page cache may answer: anonymous, and not for the platform or the API. */
  function mayUseCache(req: IncomingMessage, method: string, pathname: string): boolean {
    if (pageCacheTtlMs <= 0 || (method !== "GET" && method !== "HEAD") || isPrivatePath(pathname)) return false;
    if (req.headers.authorization !== undefined) return false;
    const cookie = req.headers.cookie;
    if (!cookie) return true;
    return cookie.split(";").every((part) => {
      const name = part.slice(0, part.indexOf("=")).trim();
      return name === "" || publicCookies.has(name);
    });
  }

  /**
   * Answers what needs no waiting (limits, redirects, static files, fresh cached pages)
   * synchronously, the hot path; returns the promise of the rest.
   */
  function handle(req: IncomingMessage, res: ServerResponse, lead: Lead, requestId: string): Promise<void> | undefined {
    const rawUrl = req.url ?? "/";
    // One line per request, with the request id as its own field: no child logger per request.
    if (logRequests) {
      const started = performance.now();
      res.once("finish", () => logRequest(req, res, requestId, rawUrl, started));
    }

    if (rawUrl.length > limits.maxUrlLength) {
      sendText(res, lead, 414, "URI Too Long");
      return;
    }
    // Origin-form only ("/path?query"): no absolute URLs, no "//host" or "\\host" that a
    // redirect or a URL parser could turn into another site.
    const queryAt = rawUrl.indexOf("?");
    const pathname = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    if (!pathname.startsWith("/") || /^[/\\]{2}|\\/.test(pathname)) {
      sendText(res, lead, 400, "Bad Request");
      return;
    }
    const method = req.method ?? "GET";

    if ((method === "GET" || method === "HEAD") && pathname.length > 1 && pathname.endsWith("/")) {
      // One URL per page: drop trailing slashes (and never redirect to another host via "//").
      const target = `/${pathname.replace(/\/+$/, "").slice(1)}${queryAt < 0 ? "" : rawUrl.slice(queryAt)}`;
      writeHead(res, lead, 308, { location: target, "content-length": "0" });
      res.end();
      return;
    }

    if (method === "GET" || method === "HEAD") {
      const file = staticFiles.get(pathname);
      if (file) {
        sendStatic(req, res, lead, file);
        return;
      }
    }
    const secure = isSecureRequest(req, config.trustProxy);
    const cacheKey = mayUseCache(req, method, pathname) ? `${secure ? "https" : "http"} ${rawUrl}` : undefined;
    const cached = cacheKey === undefined ? undefined : pageCache.peek(cacheKey, req.headers);
    if (cached) return sendPage(req, res, lead, cached);
    return handleDynamic(req, res, lead, { method, pathname, secure, cacheKey, requestId });
  }

  interface Pending {
    method: string;
    pathname: string;
    secure: boolean;
    /** Set when the page cache may answer this request. */
    cacheKey: string | undefined;
    requestId: string;
  }

  async function handleDynamic(req: IncomingMessage, res: ServerResponse, lead: Lead, pending: Pending): Promise<void> {
    const { method, pathname, secure, cacheKey, requestId } = pending;
    const refused = options.writesRefused?.();
    if (pathname === "/healthz" && (method === "GET" || method === "HEAD")) {
      const ready = (await isReady().catch(() => false)) && !refused;
      return sendJson(
        res,
        lead,
        ready ? 200 : 503,
        { status: ready ? "ok" : "unavailable", ...(refused ? { reason: refused } : {}) },
        { "cache-control": "no-store" },
      );
    }
    // The embedded database's disk nearly full (decision 0157): reads go on, writes wait for space.
    if (refused && !isSafeMethod(method)) {
      const locale = negotiateLocale({
        cookie: req.headers.cookie ?? null,
        acceptLanguage: req.headers["accept-language"] ?? null,
      });
      return sendJson(
        res,
        lead,
        503,
        { statusCode: 503, statusMessage: "Service Unavailable", message: diskFullMessage[locale], reason: refused },
        { "retry-after": "60", "cache-control": "no-store" },
      );
    }

    if (options.middleware && (await passedOn(options.middleware, req, res))) return;

    if (!isSafeMethod(method) && !isCrossSitePostEndpoint(pathname) && !isAllowedOrigin(req, origin)) {
      return sendJson(res, lead, 403, { statusCode: 403, statusMessage: "Forbidden: cross-origin request" });
    }

    const declaredLength = Number(req.headers["content-length"] ?? 0);
    if (declaredLength > limits.maxBodyBytes) {
      return sendJson(res, lead, 413, { statusCode: 413, statusMessage: "Payload Too Large" }, { connection: "close" });
    }

    const client = () => ({
      requestId,
      address: clientAddress(req, config.trustProxy),
      secure,
      log: log.child({ reqId: requestId }),
    });
    if (cacheKey === undefined) {
      const response = await app.handle(toFetchRequest(req, res, origin), client());
      // Server-Sent Events (/app/events) are streamed as they come, never buffered, compressed or cached.
      if (response.headers.get("content-type")?.startsWith("text/event-stream"))
        return streamEvents(res, lead, response);
      return sendPage(req, res, lead, await materialize(response, pathname));
    }
    const render = async () => materialize(await app.handle(toFetchRequest(req, res, origin), client()), pathname);
    await sendPage(req, res, lead, await pageCache.get(cacheKey, req.headers, render));
  }

  /** Writes an event stream chunk by chunk until it ends or the client goes. */
  async function streamEvents(res: ServerResponse, lead: Lead, response: Response): Promise<void> {
    const headers: HeaderMap = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers["cache-control"] = "no-store";
    writeHead(res, lead, response.status, headers);
    res.flushHeaders();
    if (!response.body || res.req.method === "HEAD") {
      void response.body?.cancel().catch(() => {});
      res.end();
      return;
    }
    const reader = response.body.getReader();
    res.on("close", () => void reader.cancel().catch(() => {}));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || res.destroyed) break;
        res.write(value);
      }
    } catch {
      // The client went away or the stream was cancelled: nothing more to send.
    }
    res.end();
  }

  /** Buffers the app's answer and adds what a page needs: a cache policy and an ETag. */
  async function materialize(response: Response, pathname: string): Promise<RenderedPage> {
    const headers: HeaderMap = {};
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) headers["set-cookie"] = cookies;
    const body: Buffer = response.body ? Buffer.from(await response.arrayBuffer()) : Buffer.alloc(0);
    if (isPrivatePath(pathname)) headers["cache-control"] ??= "private, no-store";
    if (!response.headers.get("content-type")?.startsWith("text/html"))
      return { status: response.status, headers, body };
    headers["cache-control"] ??= "private, no-cache";
    const etag = `W/"${createHash("sha1").update(body).digest("base64url")}"`;
    headers.etag = etag;
    return { status: response.status, headers, body, etag };
  }

  function sendPage(
    req: IncomingMessage,
    res: ServerResponse,
    lead: Lead,
    page: RenderedPage,
  ): Promise<void> | undefined {
    if (page.status === 200 && page.etag && req.headers["if-none-match"] === page.etag) {
      const headers: HeaderMap = { ...page.headers };
      delete headers["content-type"];
      writeHead(res, lead, 304, headers);
      res.end();
      return;
    }
    const encoding = pickEncoding(req.headers["accept-encoding"]);
    if (isCachedPage(page)) {
      // A cached page's headers are flattened once per encoding, not per request.
      let variants = flattenedPages.get(page);
      if (!variants) {
        variants = {
          br: flattenHeaders(pageHeaders(page, "br", page.br)),
          gzip: flattenHeaders(pageHeaders(page, "gzip", page.gzip)),
          identity: flattenHeaders(pageHeaders(page, "identity", page.body)),
        };
        flattenedPages.set(page, variants);
      }
      const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.body;
      res.writeHead(page.status, securityHeaders.concat(lead, variants[encoding]));
      res.end(req.method === "HEAD" ? undefined : body);
      return;
    }
    return sendRendered(req, res, lead, page, encoding);
  }

  async function sendRendered(
    req: IncomingMessage,
    res: ServerResponse,
    lead: Lead,
    page: RenderedPage,
    encoding: Encoding,
  ) {
    let body = page.body;
    const contentType = page.headers["content-type"];
    const compressible = isCompressible(typeof contentType === "string" ? contentType : undefined, body.length);
    if (compressible && encoding !== "identity") body = await compress(body, encoding);
    writeHead(res, lead, page.status, pageHeaders(page, compressible ? encoding : undefined, body));
    res.end(req.method === "HEAD" ? undefined : body);
  }

  /** A page's headers for a body sent in this encoding (undefined: not compressible at all). */
  function pageHeaders(page: RenderedPage, encoding: Encoding | undefined, body: Buffer): HeaderMap {
    const headers: HeaderMap = { ...page.headers };
    if (encoding !== undefined) {
      headers.vary = appendVary(headers.vary, "Accept-Encoding");
      if (encoding !== "identity") headers["content-encoding"] = encoding;
    }
    headers["content-length"] = String(body.length);
    return headers;
  }

  function failed(req: IncomingMessage, res: ServerResponse, lead: Lead, error: unknown): void {
    log.error({ err: error, method: req.method, url: req.url?.slice(0, 300) }, "request failed");
    if (!res.headersSent) sendJson(res, lead, 500, { statusCode: 500, statusMessage: "Internal Server Error" });
    else res.destroy();
  }

  /** One writeHead (no setHeader: Node's fast path): the security headers, the request's lead, then the answer's own. */
  function writeHead(res: ServerResponse, lead: Lead, status: number, headers: HeaderMap): void {
    res.writeHead(status, securityHeaders.concat(lead, flattenHeaders(headers)));
  }

  function sendStatic(req: IncomingMessage, res: ServerResponse, lead: Lead, file: StaticFile): void {
    const headers: HeaderMap = {
      "content-type": file.contentType,
      "cache-control": file.cacheControl,
      etag: file.etag,
    };
    if (req.headers["if-none-match"] === file.etag) {
      writeHead(res, lead, 304, headers);
      res.end();
      return;
    }
    let body = file.body;
    if (file.br || file.gzip) {
      headers.vary = "Accept-Encoding";
      const encoding = pickEncoding(req.headers["accept-encoding"]);
      if (encoding === "br" && file.br) {
        body = file.br;
        headers["content-encoding"] = "br";
      } else if (encoding !== "identity" && file.gzip) {
        body = file.gzip;
        headers["content-encoding"] = "gzip";
      }
    }
    headers["content-length"] = String(body.length);
    writeHead(res, lead, 200, headers);
    res.end(req.method === "HEAD" ? undefined : body);
  }

  function sendJson(res: ServerResponse, lead: Lead, status: number, body: unknown, extra: HeaderMap = {}): void {
    const payload = JSON.stringify(body);
    writeHead(res, lead, status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": String(Buffer.byteLength(payload)),
      ...extra,
    });
    res.end(payload);
  }

  function sendText(res: ServerResponse, lead: Lead, status: number, text: string): void {
    writeHead(res, lead, status, {
      "content-type": "text/plain; charset=utf-8",
      "content-length": String(Buffer.byteLength(text)),
    });
    res.end(text);
  }

  const server = http.createServer(
    {
      // Slow clients cannot hold a connection open: whole request within 15 s, headers within 10 s.
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      // How often the timeouts above are enforced (Node's default is 30 s).
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
      const requestId = `${instanceId}-${(++requestCount).toString(36)}`;
      const lead: Lead = options.isShuttingDown?.()
        ? ["X-Request-Id", requestId, "Connection", "close"]
        : ["X-Request-Id", requestId];
      let pending: Promise<void> | undefined;
      try {
        pending = handle(req, res, lead, requestId);
      } catch (error) {
        failed(req, res, lead, error);
      }
      // Only answers that wait are tracked for a graceful shutdown; the rest are already sent.
      if (!pending) return;
      const work = pending
        .catch((error: unknown) => failed(req, res, lead, error))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    },
  ) as SiteServer;
  /** Resolves when every request handler has finished (or after `timeoutMs`), even if its socket is gone. */
  server.settled = (timeoutMs: number) =>
    Promise.race([
      Promise.allSettled([...inFlight]).then(() => undefined),
      new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref()),
    ]);
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  return server;
}

/**
 * Per request, what every answer carries after the security headers: its request id, and
 * `Connection: close` once shutdown has begun. Passed along rather than kept per response
 * in a WeakMap: on the cached-page path the map's upkeep (identity hashes, ephemeron tables, young
 * collections keeping the entries alive) cost about 2 µs of the 22 µs a request took
 * (docs/performance.md, 26 November 2026).
 */
type Lead = string[];
const flattenedPages = new WeakMap<RenderedPage, Record<Encoding, string[]>>();

function flattenHeaders(headers: HeaderMap): string[] {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const item of value) flat.push(name, item);
    else flat.push(name, value);
  }
  return flat;
}

/** Resolves true when the middleware answered the request, false when it passed it on. */
function passedOn(middleware: Middleware, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve, reject) => {
    res.once("finish", () => resolve(true));
    middleware(req, res, (error) => (error ? reject(error) : resolve(false)));
  });
}

function isSafeMethod(method: string): boolean {
  return method === "GET" || method === "HEAD" || method === "OPTIONS";
}

/**
 * The one endpoint a cross-site POST may reach (decision 0136): the SAML ACS, where the IdP's page
 * posts the signed answer from its own origin. What protects it is the answer itself (signature,
 * audience, recipient, InResponseTo of this browser's request, validity, one-time use).
 */
export function isCrossSitePostEndpoint(pathname: string): boolean {
  return /^\/app\/sso\/saml\/[0-9a-f-]{36}\/acs$/.test(pathname);
}

/**
 * Cross-site request forgery guard for POSTs. A browser's Origin must be the
 * site's public origin (SITE_URL) or the origin the browser addressed (its Host
 * header: same-origin by definition, e.g. 127.0.0.1 instead of localhost).
 * Without an Origin header (old browsers, API clients), a browser's
 * Sec-Fetch-Site must not say cross-site; otherwise the request is let through
 * and left to the rate limits and form traps.
 */
export function isAllowedOrigin(req: IncomingMessage, siteOrigin: string): boolean {
  const requestOrigin = req.headers.origin;
  if (requestOrigin === undefined) {
    const fetchSite = req.headers["sec-fetch-site"];
    return fetchSite === undefined || fetchSite === "same-origin" || fetchSite === "none";
  }
  return requestOrigin === siteOrigin || isSameHostOrigin(req, requestOrigin);
}

const loopbackNames = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An Origin the browser addressed (its Host) that names this machine as SITE_URL does, on its port and scheme. */
function isLoopbackAlias(req: IncomingMessage, requestOrigin: string, siteOrigin: string): boolean {
  if (!isSameHostOrigin(req, requestOrigin) || !URL.canParse(requestOrigin)) return false;
  const site = new URL(siteOrigin);
  const seen = new URL(requestOrigin);
  return (
    loopbackNames.has(site.hostname) &&
    loopbackNames.has(seen.hostname) &&
    seen.port === site.port &&
    seen.protocol === site.protocol
  );
}

/** Whether an Origin is the one the browser addressed (its Host header): same-origin by definition. */
function isSameHostOrigin(req: IncomingMessage, requestOrigin: string): boolean {
  const host = req.headers.host;
  if (!host) return false;
  return requestOrigin === `http://${host}` || requestOrigin === `https://${host}`;
}

/** A Fetch Request for React Router. URLs are built on SITE_URL's origin, never on the Host header. */
function toFetchRequest(req: IncomingMessage, res: ServerResponse, origin: string): Request {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    let value = req.rawHeaders[i + 1] as string;
    // On this machine, a browser that opened 127.0.0.1 where SITE_URL says localhost (or the
    // reverse) sends its own origin, which isAllowedOrigin accepts as same-origin. The app sees the
    // request on SITE_URL's origin, so it is told that origin: React Router's own check would
    // otherwise refuse every form (400). Only loopback names: any other name keeps its Origin.
    if (name.toLowerCase() === "origin" && value !== origin && isLoopbackAlias(req, value, origin)) value = origin;
    try {
      headers.append(name, value);
    } catch {
      // A header the Fetch API refuses (invalid bytes) is dropped, not fatal.
    }
  }
  // A HEAD is answered as the GET it stands for, without the body (Node drops it): the app
  // renders the whole page, so a HEAD that fills the page cache keeps the real page there,
  // and its ETag and Content-Length are the GET's.
  const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
  const hasBody = method !== "GET";
  // The target was checked to start with a single "/", so this stays on the site's origin.
  return new Request(`${origin}${req.url ?? "/"}`, {
    method,
    headers,
    signal: controller.signal,
    body: hasBody ? (Readable.toWeb(limitBody(req, limits.maxBodyBytes)) as ReadableStream<Uint8Array>) : undefined,
    // @ts-expect-error Node's fetch needs duplex for a streamed body; the DOM types do not know it.
    duplex: hasBody ? "half" : undefined,
  });
}

/** Thrown into the body stream when a client sends more than the limit without announcing it. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

function limitBody(req: IncomingMessage, maxBytes: number): Readable {
  async function* limited(source: AsyncIterable<Buffer>) {
    let seen = 0;
    for await (const chunk of source) {
      seen += chunk.length;
      if (seen > maxBytes) throw new BodyTooLargeError(`body over ${maxBytes} bytes`);
      yield chunk;
    }
  }
  return Readable.from(limited(req), { objectMode: false });
}

function appendVary(existing: string | string[] | undefined, value: string): string {
  const current = Array.isArray(existing) ? existing.join(", ") : (existing ?? "");
  if (
    current
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes(value.toLowerCase())
  )
    return current;
  return current ? `${current}, ${value}` : value;
}
