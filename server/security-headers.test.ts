import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../app/.server/csp.ts";
import { baseSecurityHeaders } from "./security-headers.ts";

describe("security headers", () => {
  it("builds an enforced CSP whose inline scripts need this response's nonce", () => {
    const csp = contentSecurityPolicy("abc123", { https: false });
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src"));
    expect(scriptSrc).toBe("script-src 'self' 'nonce-abc123'");
    for (const directive of ["frame-ancestors 'none'", "form-action 'self'", "base-uri 'self'", "object-src 'none'"]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy("n", { https: true })).toContain("upgrade-insecure-requests");
  });

  it("sends HSTS only for an https site", () => {
    expect(baseSecurityHeaders({ https: false })["Strict-Transport-Security"]).toBeUndefined();
    expect(baseSecurityHeaders({ https: true })["Strict-Transport-Security"]).toMatch(/max-age=31536000/);
    const headers = baseSecurityHeaders({ https: false });
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["Cross-Origin-Opener-Policy"]).toBe("same-origin");
    expect(headers["Permissions-Policy"]).toContain("camera=()");
  });
});
