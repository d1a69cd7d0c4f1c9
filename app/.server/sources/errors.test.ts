import { describe, expect, it } from "vitest";
import { failureKind, failureKindFromMessage, failureStatus, SourceParseError } from "./errors.ts";
import { SourceFetchError } from "./http.ts";

describe("source failure kinds", () => {
  it("classifies what the HTTP client and the parsers throw", () => {
    const url = "https://www.boe.es/x";
    expect(failureKind(new SourceFetchError(url, "network error: fetch failed"))).toBe("unreachable");
    expect(failureKind(new SourceFetchError(url, "timed out after 20000 ms"))).toBe("timeout");
    expect(failureKind(new SourceFetchError(url, "HTTP 503", 503))).toBe("http");
    expect(failureKind(new SourceFetchError(url, "HTTP 429", 429))).toBe("rate_limited");
    expect(failureKind(new SourceParseError("boe-summary@1", "unreadable payload (x)"))).toBe("malformed");
    expect(failureKind(new Error("something else"))).toBe("other");
    expect(failureKind("not an error")).toBe("other");
  });

  it("reads the kind and status of messages stored before kinds were", () => {
    expect(failureKindFromMessage("summary 2026-04-07: network error: fetch failed (https://www.boe.es/a)")).toBe(
      "unreachable",
    );
    expect(failureKindFromMessage("feed: HTTP 502 (https://eur-lex.europa.eu/x)")).toBe("http");
    expect(failureStatus("feed: HTTP 502 (https://eur-lex.europa.eu/x)")).toBe(502);
    expect(failureKindFromMessage("BOE-A-1: boe-document@1: unreadable payload (x)")).toBe("malformed");
  });
});
