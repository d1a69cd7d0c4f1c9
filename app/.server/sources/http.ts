/**
 * The sources' HTTP client: Node's fetch with an AbortSignal timeout, at most `perSecond`
 * requests per source (a spacing gate), a User-Agent naming the product, retries with
 * exponential backoff on timeouts, 5xx, 429 and network errors. Answers carry the bytes'
 * SHA-256 and the fetch time for provenance.
 */
import { createHash } from "node:crypto";
import { OutboundRefused } from "../net/outbound.ts";

export interface FetchedPayload {
  url: string;
  status: number;
  body: string;
  fetchedAt: string;
  sha256: string;
}

export class SourceFetchError extends Error {
  readonly url: string;
  readonly status: number | undefined;
  constructor(url: string, message: string, status?: number, options?: { cause?: unknown }) {
    super(`${message} (${url})`, options);
    this.name = "SourceFetchError";
    this.url = url;
    this.status = status;
  }
}

export interface SourceHttpOptions {
  userAgent: string;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  /** Maximum requests per second for this client (one client per source). */
  perSecond?: number;
  /** The fetch to use: the outbound guard's for URLs users typed (admins' feeds); Node's by default. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export interface SourceHttp {
  /** Fetches a URL; 2xx and 404 are answers (callers decide what 404 means), other failures throw SourceFetchError after retries. */
  request(
    url: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<FetchedPayload>;
}

export function productUserAgent(siteUrl: string): string {
  return `VigiaNormativo/0.1 (+${siteUrl})`;
}

export function createSourceHttp(options: SourceHttpOptions): SourceHttp {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 1000;
  const spacing = 1000 / (options.perSecond ?? 2);
  let nextSlot = 0;
  const gate = async () => {
    const now = Date.now();
    const slot = Math.max(now, nextSlot);
    nextSlot = slot + spacing;
    if (slot > now) await new Promise((r) => setTimeout(r, slot - now));
  };

  return {
    async request(url, init = {}) {
      let lastError: SourceFetchError | undefined;
      for (let attempt = 0; attempt <= retries; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, backoffMs * 2 ** (attempt - 1)));
        await gate();
        try {
          const response = await (options.fetch ?? fetch)(url, {
            method: init.method ?? "GET",
            headers: { "user-agent": options.userAgent, ...init.headers },
            ...(init.body !== undefined ? { body: init.body } : {}),
            signal: AbortSignal.timeout(timeoutMs),
            redirect: "follow",
          });
          const bytes = Buffer.from(await response.arrayBuffer());
          if (response.status >= 500 || response.status === 429 || response.status === 202) {
            lastError = new SourceFetchError(url, `HTTP ${response.status}`, response.status);
            continue;
          }
          if (!response.ok && response.status !== 404)
            throw new SourceFetchError(url, `HTTP ${response.status}`, response.status);
          return {
            url,
            status: response.status,
            body: bytes.toString("utf8"),
            fetchedAt: new Date().toISOString(),
            sha256: createHash("sha256").update(bytes).digest("hex"),
          };
        } catch (error) {
          if (error instanceof SourceFetchError && error.status !== undefined && error.status < 500) throw error;
          if (error instanceof OutboundRefused)
            throw new SourceFetchError(url, error.message, undefined, { cause: error });
          const timedOut =
            error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
          lastError =
            error instanceof SourceFetchError
              ? error
              : new SourceFetchError(
                  url,
                  timedOut ? `timed out after ${timeoutMs} ms` : `network error: ${(error as Error).message}`,
                  undefined,
                  { cause: error },
                );
        }
      }
      throw lastError ?? new SourceFetchError(url, "failed");
    },
  };
}
