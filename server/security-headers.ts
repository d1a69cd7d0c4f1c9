/** Every security header the site sends, in one place. */
import { createHash } from "node:crypto";

export interface SecurityOptions {
  /** True when SITE_URL is https: only then HSTS and upgrade-insecure-requests. */
  https: boolean;
}

/** Headers for every response. */
export function baseSecurityHeaders(options: SecurityOptions): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    "X-Frame-Options": "DENY",
  };
  if (options.https) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

const inlineScript = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** sha256 sources of every inline script in a page, for a CSP that needs no 'unsafe-inline'. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(inlineScript)) {
    const attributes = match[1] ?? "";
    const body = match[2] ?? "";
    if (/\bsrc\s*=/.test(attributes) || body.length === 0) continue;
    hashes.add(`'sha256-${createHash("sha256").update(body).digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * The page's Content-Security-Policy. Scripts are allowed from our origin and,
 * inline, only by the hash of each script the page actually contains.
 */
export function contentSecurityPolicy(scriptHashes: readonly string[], options: SecurityOptions): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(" ")}`.trim(),
    // Widgets position themselves with style attributes; no script can run from a style.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ];
  if (options.https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}
