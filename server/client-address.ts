/** The real client behind at most TRUST_PROXY proxies, and whether it came over HTTPS. */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}

/**
 * With N trusted proxies, the client is the N-th address from the right of
 * X-Forwarded-For (each proxy appends the peer it saw). Anything further left
 * was written by the client and cannot be trusted.
 */
export function clientAddress(req: IncomingMessage, trustProxy: number): string {
  const peer = req.socket.remoteAddress ?? "unknown";
  if (trustProxy <= 0) return normalize(peer);
  const forwarded = headerValue(req.headers["x-forwarded-for"]);
  if (!forwarded) return normalize(peer);
  const hops = forwarded
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const candidate = hops[Math.max(0, hops.length - trustProxy)];
  return candidate && isIP(candidate) ? normalize(candidate) : normalize(peer);
}

export function isSecureRequest(req: IncomingMessage, trustProxy: number): boolean {
  if ("encrypted" in req.socket && req.socket.encrypted) return true;
  if (trustProxy <= 0) return false;
  const proto = headerValue(req.headers["x-forwarded-proto"])?.split(",")[0]?.trim().toLowerCase();
  return proto === "https";
}

function normalize(address: string): string {
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}
