import { describe, expect, it } from "vitest";
import { ssoRequestCookie } from "./sso.ts";

/** Reads a Set-Cookie line's attributes as a browser does (names case-insensitive). */
function attributes(line: string) {
  const [pair = "", ...rest] = line.split(";").map((part) => part.trim());
  const map = new Map(rest.map((part) => [part.split("=")[0]!.toLowerCase(), part.split("=")[1] ?? ""]));
  return { pair, map };
}

describe("the SSO request cookie", () => {
  it("is SameSite=None; Secure over https, so that the IdP's cross-site SAML POST carries it", () => {
    const { pair, map } = attributes(ssoRequestCookie("_abc 1", "https://vigia.banco.example"));
    expect(pair).toBe("vn.sso_request=_abc%201");
    expect(map.get("samesite")).toBe("None");
    expect(map.has("secure")).toBe(true);
    expect(map.has("httponly")).toBe(true);
    expect(map.get("path")).toBe("/app/sso");
    expect(Number(map.get("max-age"))).toBe(600);
  });

  it("is SameSite=Lax without Secure over http (development): a browser would drop None without Secure", () => {
    for (const site of ["http://localhost:3000", "http://127.0.0.1:8080/"]) {
      const { map } = attributes(ssoRequestCookie("_abc", site));
      expect(map.get("samesite")).toBe("Lax");
      expect(map.has("secure")).toBe(false);
    }
  });
});
