/** The security headers of every response. The pages' Content-Security-Policy comes from the app (app/.server/csp.ts). */
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
