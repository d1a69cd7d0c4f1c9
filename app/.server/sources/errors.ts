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
