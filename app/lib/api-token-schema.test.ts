import { describe, expect, it } from "vitest";
import { apiTokenFormSchema, tokenExpiry } from "./api-token-schema.ts";

describe("apiTokenFormSchema", () => {
  const today = "2026-11-23";

  it("accepts a name, a scope and an optional future expiry", () => {
    const schema = apiTokenFormSchema("es", today);
    expect(schema.parse({ name: "  CI export  ", scope: "read" })).toEqual({ name: "CI export", scope: "read" });
    expect(schema.parse({ name: "x", scope: "admin", expiresAt: "2026-11-24" }).expiresAt).toBe("2026-11-24");
  });

  it("refuses the rest with messages in the user's language", () => {
    const es = apiTokenFormSchema("es", today).safeParse({ name: " ", scope: "root", expiresAt: "2026-11-23" });
    expect(es.success).toBe(false);
    const byField = Object.fromEntries((es.error?.issues ?? []).map((issue) => [issue.path[0], issue.message]));
    expect(byField).toEqual({
      name: "Escribe un nombre de 1 a 100 caracteres",
      scope: "Elige lectura o administración",
      expiresAt: "La caducidad debe ser una fecha posterior a hoy (AAAA-MM-DD)",
    });
    const en = apiTokenFormSchema("en", today).safeParse({ name: "x".repeat(101), scope: "read", expiresAt: "soon" });
    expect((en.error?.issues ?? []).map((issue) => issue.message)).toEqual([
      "Enter a name of 1 to 100 characters",
      "The expiry must be a date after today (YYYY-MM-DD)",
    ]);
  });

  it("turns the expiry date into the end of that day", () => {
    expect(tokenExpiry("2026-12-31")?.toISOString()).toBe("2026-12-31T23:59:59.999Z");
    expect(tokenExpiry(undefined)).toBeUndefined();
  });
});
