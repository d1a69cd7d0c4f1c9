/**
 * The pages' Content-Security-Policy. Inline scripts run only with this response's
 * nonce, which the app puts on the scripts it renders itself; a script that reached
 * the HTML any other way (content, an injection) has no nonce and is blocked. The
 * server's page cache swaps the nonce for the hashes of exactly those scripts.
 */
export function contentSecurityPolicy(nonce: string, options: { https: boolean; dev?: boolean }): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Widgets position themselves with style attributes; no script can run from a style.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    // Development: Vite's hot-reload socket listens on a port of its own.
    options.dev ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ];
  if (options.https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}
