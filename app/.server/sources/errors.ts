/**
 * The one error the source parsers throw: bad, truncated or unexpected payloads end here,
 * never as a TypeError or a parser's own exception. `parser` names the parser, `reason` is
 * a short English sentence for logs and the Sources page.
 */
export class SourceParseError extends Error {
  readonly parser: string;
  readonly reason: string;
  /** The payload's URL, set by the client that fetched it. */
  url: string | undefined;
  constructor(parser: string, reason: string, options?: { cause?: unknown }) {
    super(`${parser}: ${reason}`, options);
    this.name = "SourceParseError";
    this.parser = parser;
    this.reason = reason;
  }
}

/** Runs a parser body and turns any unexpected exception into a SourceParseError. */
export function guardParse<T>(parser: string, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof SourceParseError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new SourceParseError(parser, `unreadable payload (${message.slice(0, 200)})`, { cause: error });
  }
}

/** Runs a parse of a fetched payload, tagging a SourceParseError with the payload's URL. */
export function parseAt<T>(url: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof SourceParseError) error.url = url;
    throw error;
  }
}

/** The URL a fetch or parse error names, if any. */
export function errorUrl(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "url" in error && typeof error.url === "string") return error.url;
  return undefined;
}

/**
 * What kind of failure stopped a fetch, in terms a user can act on: the source could not be
 * reached (DNS, refused, reset), did not answer in time, answered an HTTP error, asked us to
 * slow down (429), or sent something the parsers cannot read. The pages name the kind in the
 * reader's language and keep the technical message beside it for admins.
 */
export const SOURCE_FAILURE_KINDS = ["unreachable", "timeout", "http", "rate_limited", "malformed", "other"] as const;
export type SourceFailureKind = (typeof SOURCE_FAILURE_KINDS)[number];

export function isSourceFailureKind(value: unknown): value is SourceFailureKind {
  return typeof value === "string" && (SOURCE_FAILURE_KINDS as readonly string[]).includes(value);
}

/** The kind of a thrown fetch or parse error (SourceFetchError from http.ts, SourceParseError). */
export function failureKind(error: unknown): SourceFailureKind {
  if (error instanceof SourceParseError) return "malformed";
  if (error instanceof Error && error.name === "SourceFetchError") {
    const status = (error as Error & { status?: number }).status;
    if (status === 429) return "rate_limited";
    if (status !== undefined) return "http";
  }
  return error instanceof Error ? failureKindFromMessage(error.message) : "other";
}

/** The kind read from a stored or logged message (rows recorded before kinds were stored). */
export function failureKindFromMessage(message: string): SourceFailureKind {
  if (/\bHTTP 429\b/.test(message)) return "rate_limited";
  if (/\bHTTP \d{3}\b/.test(message)) return "http";
  if (/timed out|timeout/i.test(message)) return "timeout";
  if (/network error|fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH/i.test(message))
    return "unreachable";
  if (/unreadable payload|not valid|malformed|no metadata|lists .* more than once|@\d+:/i.test(message))
    return "malformed";
  return "other";
}

/** The HTTP status a stored message names ("HTTP 503 (https://…)"), if any. */
export function failureStatus(message: string): number | undefined {
  const match = /\bHTTP (\d{3})\b/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/**
 * A document given up after its retries ("BOE-A-…: given up after 12 retries: HTTP 500 (…)",
 * ingest.ts retryBoeDocument): which one and after how many; undefined for any other error.
 */
export function givenUpDocument(message: string): { document: string; retries: number } | undefined {
  const match = /^(\S+): given up after (\d+) retries: /.exec(message);
  return match ? { document: match[1] as string, retries: Number(match[2]) } : undefined;
}
