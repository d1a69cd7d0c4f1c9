import { describe, expect, it } from "vitest";
import { localeCookie, localeFromAcceptLanguage, localeFromCookie, negotiateLocale } from "./locale.ts";

describe("locale negotiation", () => {
  it("reads the locale cookie among others", () => {
    expect(localeFromCookie("a=1; locale=en; b=2")).toBe("en");
    expect(localeFromCookie("locale=es")).toBe("es");
  });

  it.each(["locale=fr", "locale=", "locale", "=;;=", "locale=en%00", "%%%", ""])(
    "ignores the malformed cookie %j",
    (cookie) => {
      expect(localeFromCookie(cookie)).toBeUndefined();
    },
  );

  it("weighs Accept-Language by q", () => {
    expect(localeFromAcceptLanguage("en-US,en;q=0.9,es;q=0.8")).toBe("en");
    expect(localeFromAcceptLanguage("en;q=0.4, es-ES;q=0.9")).toBe("es");
    expect(localeFromAcceptLanguage("fr-FR, de;q=0.9, en;q=0.5")).toBe("en");
    expect(localeFromAcceptLanguage("en-GB")).toBe("en");
  });

  it.each(["fr, de", "*", ";;;q=", "en;q=abc,,,", "x".repeat(2000), "\u00ff\u00fe", "q=1;en"])(
    "gives no answer for %j instead of failing",
    (header) => {
      expect(() => localeFromAcceptLanguage(header)).not.toThrow();
      expect(localeFromAcceptLanguage(header) === undefined || localeFromAcceptLanguage(header) === "en").toBe(true);
    },
  );

  it("prefers the cookie, then Accept-Language, then Spanish", () => {
    expect(negotiateLocale({ cookie: "locale=es", acceptLanguage: "en" })).toBe("es");
    expect(negotiateLocale({ cookie: "locale=en", acceptLanguage: "es" })).toBe("en");
    expect(negotiateLocale({ cookie: "other=1", acceptLanguage: "en-US" })).toBe("en");
    expect(negotiateLocale({ cookie: null, acceptLanguage: "fr" })).toBe("es");
    expect(negotiateLocale({})).toBe("es");
  });

  it("writes the cookie for 365 days on the whole site", () => {
    expect(localeCookie("en")).toBe("locale=en; Max-Age=31536000; Path=/; SameSite=Lax");
    expect(localeCookie("es", true)).toBe("locale=es; Max-Age=31536000; Path=/; SameSite=Lax; Secure");
  });
});
