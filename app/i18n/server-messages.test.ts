/** The server's catalog (es/server.ts, en/server.ts): same keys in both, nothing empty, tú in Spanish. */
import { describe, expect, it } from "vitest";
import { serverMessagesFor } from "./server-messages.ts";

function paths(value: unknown, prefix = ""): string[] {
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => paths(item, prefix ? `${prefix}.${key}` : key));
  return [prefix];
}

function leaves(value: unknown): string[] {
  if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
  return [String(value)];
}

describe("server messages", () => {
  it("have the same keys in Spanish and English, none empty", () => {
    expect(paths(serverMessagesFor("en")).sort()).toEqual(paths(serverMessagesFor("es")).sort());
    for (const locale of ["es", "en"] as const) {
      expect(leaves(serverMessagesFor(locale)).filter((text) => text.trim() === "")).toEqual([]);
    }
  });

  it("address the user as tú in Spanish, never usted", () => {
    const text = JSON.stringify(serverMessagesFor("es"));
    expect(text).not.toMatch(
      /\b(usted|escriba|elija|compruebe|vuelva|espere|inténtelo|ignore|esperaba|acceda|indique|pida|configure|su (cuenta|correo|contraseña|nombre|sesión))\b/i,
    );
  });
});
