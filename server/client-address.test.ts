import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddress, isSecureRequest } from "./client-address.ts";

function request(peer: string, headers: Record<string, string> = {}): IncomingMessage {
  return { socket: { remoteAddress: peer }, headers } as unknown as IncomingMessage;
}

describe("client address", () => {
  it("ignores X-Forwarded-For unless proxies are trusted", () => {
    expect(clientAddress(request("10.0.0.1", { "x-forwarded-for": "203.0.113.9" }), 0)).toBe("10.0.0.1");
  });

  it("takes the address the trusted proxy saw, not what the client wrote", () => {
    const req = request("10.0.0.1", { "x-forwarded-for": "1.2.3.4, 203.0.113.9" });
    expect(clientAddress(req, 1)).toBe("203.0.113.9");
    expect(clientAddress(req, 2)).toBe("1.2.3.4");
    expect(clientAddress(req, 5)).toBe("1.2.3.4");
  });

  it("falls back to the peer on garbage and unwraps IPv4-mapped addresses", () => {
    expect(clientAddress(request("::ffff:127.0.0.1", { "x-forwarded-for": "not-an-ip" }), 1)).toBe("127.0.0.1");
  });

  it("honours X-Forwarded-Proto only from trusted proxies", () => {
    expect(isSecureRequest(request("10.0.0.1", { "x-forwarded-proto": "https" }), 0)).toBe(false);
    expect(isSecureRequest(request("10.0.0.1", { "x-forwarded-proto": "https" }), 1)).toBe(true);
  });
});
