/**
 * The sources' HTTP client: Node's fetch with an AbortSignal timeout, every request (retries
 * included) paced by the instance's SourcePacer (pacing.ts: one request out per source at a
 * time, the next one half a second after its answer, across the instance's jobs and, on
 * PostgreSQL, across instances; the lane is released when the headers arrive), a User-Agent naming the
 * product, retries with exponential backoff on timeouts, 5xx, 429 and network errors,
 * conditional requests (If-None-Match / If-Modified-Since; a 304 is an answer). Answers carry
 * the bytes' SHA-256, the fetch time for provenance and the validators (ETag, Last-Modified).
 */
import { createHash } from "node:crypto";
import { OutboundRefused } from "../net/outbound.ts";
import { createSourcePacer, type SourcePacer } from "./pacing.ts";

export interface FetchedPayload {
  url: string;
  status: number;
  body: string;
  fetchedAt: string;
  sha256: string;
  etag?: string;
  lastModified?: string;
}

/** What a previous answer said about its version, for a conditional request. */
export interface Validators {
  etag?: string | undefined;
  lastModified?: string | undefined;
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
  /** The source's key in the pacer ("boe", "eurlex", "cellar"); a request may name another. */
  source: string;
  /** The instance's pacer (pacing.ts instancePacer); default: a private one at `perSecond`. */
  pacer?: SourcePacer;
  /** Requests per second when no pacer is given (tests against a local replay); default the spec's (pacing.ts). */
  perSecond?: number;
  /** The fetch to use: the outbound guard's for URLs users typed (admins' feeds); Node's by default. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export interface SourceRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Leaves before the source's waiting ordinary requests (today's issue before the backfill). */
  urgent?: boolean;
  /** Sends If-None-Match / If-Modified-Since; the answer may then be a 304 with an empty body. */
  ifChanged?: Validators;
  /** Pacing key for this request (feeds: one per host). */
  source?: string;
}

export interface SourceHttp {
  /** Fetches a URL; 2xx and 404 are answers (callers decide what 404 means), other failures throw SourceFetchError after retries. */
  /** 2xx, 304 (conditional requests) and 404 are answers. */
  request(url: string, init?: SourceRequestInit): Promise<FetchedPayload>;
}

export function productUserAgent(siteUrl: string): string {
  return `VigiaNormativo/0.1 (+${siteUrl})`;
}

export function createSourceHttp(options: SourceHttpOptions): SourceHttp {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 1000;
  const pacer =
    options.pacer ?? createSourcePacer(options.perSecond !== undefined ? { perSecond: options.perSecond } : {});

  return {
    async request(url, init = {}) {
      let lastError: SourceFetchError | undefined;
      for (let attempt = 0; attempt <= retries; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, backoffMs * 2 ** (attempt - 1)));
        const release = await pacer.acquire(init.source ?? options.source, { urgent: init.urgent === true });
        const conditional: Record<string, string> = {};
        if (init.ifChanged?.etag) conditional["if-none-match"] = init.ifChanged.etag;
        if (init.ifChanged?.lastModified) conditional["if-modified-since"] = init.ifChanged.lastModified;
        try {
          let response: Response;
          try {
            response = await (options.fetch ?? fetch)(url, {
              method: init.method ?? "GET",
              headers: { "user-agent": options.userAgent, ...init.headers, ...conditional },
              ...(init.body !== undefined ? { body: init.body } : {}),
              signal: AbortSignal.timeout(timeoutMs),
              redirect: "follow",
            });
          } finally {
            // Answered (headers in) or failed: the source has had this request; the lane's spacing starts now.
            release();
          }
          const bytes = Buffer.from(await response.arrayBuffer());
          if (response.status >= 500 || response.status === 429 || response.status === 202) {
            lastError = new SourceFetchError(url, `HTTP ${response.status}`, response.status);
            continue;
          }
          if (!response.ok && response.status !== 404 && response.status !== 304)
            throw new SourceFetchError(url, `HTTP ${response.status}`, response.status);
          const etag = response.headers.get("etag");
          const lastModified = response.headers.get("last-modified");
          return {
            url,
            status: response.status,
            body: bytes.toString("utf8"),
            fetchedAt: new Date().toISOString(),
            sha256: createHash("sha256").update(bytes).digest("hex"),
            ...(etag ? { etag } : {}),
            ...(lastModified ? { lastModified } : {}),
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
