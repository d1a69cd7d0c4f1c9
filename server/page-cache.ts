/**
 * Rendered pages kept in memory for a short time with their compressed bodies,
 * so a burst of visitors costs one render and one compression per page and
 * second instead of one per request. Pages that depend on the request (query
 * strings, a form's outcome) never come from here.
 */

import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type HeaderMap = Record<string, string | string[]>;

export interface RenderedPage {
  status: number;
  headers: HeaderMap;
  body: Buffer;
}

export interface CachedPage extends RenderedPage {
  etag: string;
  br: Buffer;
  gzip: Buffer;
  expiresAt: number;
}

export interface PageCache {
  get(key: string, render: () => Promise<RenderedPage & { etag: string }>): Promise<CachedPage | RenderedPage>;
  clear(): void;
}

export function createPageCache(ttlMs: number, now: () => number = () => Date.now()): PageCache {
  const entries = new Map<string, CachedPage>();
  const pending = new Map<string, Promise<CachedPage | RenderedPage>>();

  async function fill(key: string, render: () => Promise<RenderedPage & { etag: string }>) {
    const page = await render();
    // Only complete successful pages are kept; anything else is answered once as it is.
    if (page.status !== 200) return page;
    const [br, gz] = await Promise.all([
      brotliAsync(page.body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 10, [constants.BROTLI_PARAM_SIZE_HINT]: page.body.length },
      }),
      gzipAsync(page.body, { level: 9 }),
    ]);
    const entry: CachedPage = { ...page, br, gzip: gz, expiresAt: now() + ttlMs };
    entries.set(key, entry);
    return entry;
  }

  return {
    async get(key, render) {
      const entry = entries.get(key);
      if (entry && entry.expiresAt > now()) return entry;
      // One render per key at a time; concurrent visitors share it.
      let inFlight = pending.get(key);
      if (!inFlight) {
        inFlight = fill(key, render).finally(() => pending.delete(key));
        pending.set(key, inFlight);
      }
      // While a fresh copy renders, one that expired less than a TTL ago is still a valid page
      // (its form token at most two TTLs old); an older one is not served.
      if (entry && entry.expiresAt > now() - ttlMs) {
        // Whoever comes next sees the refresh's failure; this visitor has a page.
        inFlight.catch(() => {});
        return entry;
      }
      return inFlight;
    },
    clear() {
      entries.clear();
    },
  };
}

export function isCachedPage(page: CachedPage | RenderedPage): page is CachedPage {
  return "br" in page;
}
