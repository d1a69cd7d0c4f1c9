/** Moving better-auth's cookies between its server-side answers, our requests and our responses. */

/** Set-Cookie lines of a better-auth answer. */
export function setCookiesOf(response: Response): string[] {
  return response.headers.getSetCookie();
}

/** A Cookie header: the request's cookies overridden by the Set-Cookie lines (expired ones removed). */
export function mergeCookies(cookieHeader: string | null, setCookies: readonly string[]): string {
  const jar = new Map<string, string>();
  for (const part of (cookieHeader ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index > 0) jar.set(part.slice(0, index).trim(), part.slice(index + 1).trim());
  }
  for (const line of setCookies) {
    const [pair = "", ...attributes] = line.split(";");
    const index = pair.indexOf("=");
    if (index <= 0) continue;
    const name = pair.slice(0, index).trim();
    const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
    if (expired || pair.slice(index + 1).trim() === "") jar.delete(name);
    else jar.set(name, pair.slice(index + 1).trim());
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The session token a Set-Cookie list carries (the signed cookie's value before its signature). */
export function sessionTokenOf(setCookies: readonly string[]): string | null {
  for (const line of setCookies) {
    const match = /^(?:__Secure-)?vn\.session_token=([^;]*)/.exec(line);
    if (match?.[1]) return decodeURIComponent(match[1]).split(".")[0] ?? null;
  }
  return null;
}

/** The session token of a request's cookies. */
export function requestSessionToken(cookieHeader: string | null): string | null {
  const match = /(?:^|;\s*)(?:__Secure-)?vn\.session_token=([^;]*)/.exec(cookieHeader ?? "");
  return match?.[1] ? (decodeURIComponent(match[1]).split(".")[0] ?? null) : null;
}

export function headersWithCookies(base: Headers, setCookies: readonly string[]): Headers {
  const headers = new Headers(base);
  headers.set("cookie", mergeCookies(base.get("cookie"), setCookies));
  return headers;
}

export function appendSetCookies(headers: Headers, setCookies: readonly string[]): Headers {
  for (const line of setCookies) headers.append("set-cookie", line);
  return headers;
}
