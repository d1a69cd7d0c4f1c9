import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseSecurityHeaders, contentSecurityPolicy, inlineScriptHashes } from "./security-headers.ts";

describe("security headers", () => {
  it("hashes each inline script and ignores external ones", () => {
    const html = '<script>a()</script><script type="module">b()</script><script src="/x.js"></script><script></script>';
    const sha = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;
    expect(inlineScriptHashes(html)).toEqual([sha("a()"), sha("b()")]);
  });

  it("builds an enforced CSP without unsafe-inline scripts", () => {
    const csp = contentSecurityPolicy(["'sha256-abc'"], { https: false });
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src"));
    expect(scriptSrc).toBe("script-src 'self' 'sha256-abc'");
    for (const directive of ["frame-ancestors 'none'", "form-action 'self'", "base-uri 'self'", "object-src 'none'"]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy([], { https: true })).toContain("upgrade-insecure-requests");
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
