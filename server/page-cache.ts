/**
 * A small shared HTTP cache in front of the app, so a burst of visitors costs one
 * render and one compression per page and second instead of one per request.
 *
 * It decides nothing about the app's pages: a response is kept only when its route
 * said so with `Cache-Control: public, …, s-maxage=N` (the directive for shared
 * caches; browsers ignore it), for N seconds at most `maxTtlMs`, one copy per value
 * of the request headers its `Vary` names. The server decides which requests may
 * use it at all (never /app, /api, or a request with a session cookie).
 */

import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type HeaderMap = Record<string, string | string[]>;

export interface RenderedPage {
  status: number;
  headers: HeaderMap;
  body: Buffer;
  etag?: string;
}

export interface CachedPage extends RenderedPage {
  etag: string;
  br: Buffer;
  gzip: Buffer;
  expiresAt: number;
  ttlMs: number;
}

export type RequestHeaders = Record<string, string | string[] | undefined>;

export interface PageCache {
  /**
   * The page for this URL and request: a fresh cached copy, or `render()`'s answer
   * (kept when its route allows it). Concurrent requests for one copy share a render.
   */
  get(url: string, requestHeaders: RequestHeaders, render: () => Promise<RenderedPage>): Promise<RenderedPage>;
  /** A fresh cached copy for this request, without waiting (the hot path); undefined otherwise. */
  peek(url: string, requestHeaders: RequestHeaders): CachedPage | undefined;
  clear(): void;
}

/** Most copies kept; the oldest goes first. */
const maxEntries = 500;

export function createPageCache(maxTtlMs: number, now: () => number = () => Date.now()): PageCache {
  /** Per URL, the request headers its route varies on (known after its first cacheable answer). */
  const varyByUrl = new Map<string, string[]>();
  const entries = new Map<string, CachedPage>();
  const pending = new Map<string, Promise<RenderedPage>>();

  async function fill(url: string, requestHeaders: RequestHeaders, render: () => Promise<RenderedPage>) {
    const page = await render();
    const ttlMs = Math.min(maxTtlMs, sharedMaxAgeMs(page));
    const vary = varyHeaders(page.headers.vary);
    if (page.status !== 200 || ttlMs <= 0 || vary === undefined) return page;
    varyByUrl.set(url, vary);
    const key = variantKey(url, vary, requestHeaders);
    const hashed = withScriptHashes(page);
    const [br, gz] = await Promise.all([
      brotliAsync(hashed.body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 10, [constants.BROTLI_PARAM_SIZE_HINT]: hashed.body.length },
      }),
      gzipAsync(hashed.body, { level: 9 }),
    ]);
    const entry: CachedPage = {
      ...hashed,
      etag: hashed.etag ?? `W/"${createHash("sha1").update(hashed.body).digest("base64url")}"`,
      br,
      gzip: gz,
      expiresAt: now() + ttlMs,
      ttlMs,
    };
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    if (varyByUrl.size > maxEntries) varyByUrl.delete(varyByUrl.keys().next().value as string);
    return entry;
  }

  return {
    async get(url, requestHeaders, render) {
      const vary = varyByUrl.get(url);
      // A URL never answered cacheably yet: render, and learn its Vary if it is.
      if (vary === undefined) return fill(url, requestHeaders, render);
      const key = variantKey(url, vary, requestHeaders);
      const entry = entries.get(key);
      if (entry && entry.expiresAt > now()) return entry;
      let inFlight = pending.get(key);
      if (!inFlight) {
        inFlight = fill(url, requestHeaders, render).finally(() => pending.delete(key));
        pending.set(key, inFlight);
      }
      // While a fresh copy renders, one that expired less than its TTL ago is still served
      // (its form token at most two TTLs old); an older one is not.
      if (entry && entry.expiresAt > now() - entry.ttlMs) {
        // Whoever comes next sees the refresh's failure; this visitor has a page.
        inFlight.catch(() => {});
        return entry;
      }
      return inFlight;
    },
    peek(url, requestHeaders) {
      const vary = varyByUrl.get(url);
      if (vary === undefined) return undefined;
      const entry = entries.get(variantKey(url, vary, requestHeaders));
      return entry && entry.expiresAt > now() ? entry : undefined;
    },
    clear() {
      entries.clear();
      varyByUrl.clear();
    },
  };
}

export function isCachedPage(page: RenderedPage): page is CachedPage {
  return "br" in page;
}

function headerValue(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

/** s-maxage of a `public` response in ms; 0 when a shared cache may not keep it. */
export function sharedMaxAgeMs(page: RenderedPage): number {
  const directives = headerValue(page.headers["cache-control"])
    .toLowerCase()
    .split(",")
    .map((part) => part.trim());
  if (!directives.includes("public") || directives.some((d) => d === "no-store" || d === "private")) return 0;
  const sMaxAge = directives.find((d) => d.startsWith("s-maxage="));
  const seconds = Number(sMaxAge?.slice("s-maxage=".length));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/** The request headers a response varies on (lower case), without Accept-Encoding (the cache keeps every encoding); undefined for `*`. */
function varyHeaders(value: string | string[] | undefined): string[] | undefined {
  const names = headerValue(value)
    .toLowerCase()
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "" && name !== "accept-encoding");
  return names.includes("*") ? undefined : [...new Set(names)].sort();
}

function variantKey(url: string, vary: string[], requestHeaders: RequestHeaders): string {
  // Built without intermediate arrays: the hot path asks for it on every cached request.
  let key = url;
  for (const name of vary) key += `\n${headerValue(requestHeaders[name])}`;
  return key;
}

const inlineScript = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * A page rendered for one request carries that request's CSP nonce. Before the page
 * is served to others, the nonce is replaced in its policy by the hashes of the
 * scripts that carried it: the app's own scripts keep running, anything else stays
 * blocked, and no nonce is reused across visitors.
 */
export function withScriptHashes(page: RenderedPage): RenderedPage {
  const policy = headerValue(page.headers["content-security-policy"]);
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  if (!nonce) return page;
  const html = page.body.toString("utf8");
  const hashes = new Set<string>();
  for (const match of html.matchAll(inlineScript)) {
    const attributes = match[1] ?? "";
    const body = match[2] ?? "";
    if (/\bsrc\s*=/.test(attributes) || body.length === 0) continue;
    if (!attributes.includes(`nonce="${nonce}"`)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(body).digest("base64")}'`);
  }
  const headers = {
    ...page.headers,
    "content-security-policy": policy.replace(`'nonce-${nonce}'`, [...hashes].join(" ")),
  };
  return { ...page, headers };
}
