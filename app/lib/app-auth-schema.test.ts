import { describe, expect, it } from "vitest";
import { inviteSchema, loginSchema, parseForm, secondFactorSchema, setupSchema } from "./app-auth-schema.ts";

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
}

describe("platform form schemas", () => {
  it("normalises a valid sign-in and names bad fields in the user's language", () => {
    const ok = parseForm(
      loginSchema("es"),
      form([
        ["email", " Ana@Example.com "],
        ["password", "x"],
      ]),
    );
    expect(ok).toEqual({ ok: true, data: { email: "ana@example.com", password: "x" } });
    const bad = parseForm(loginSchema("en"), form([["email", "nope"]]));
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.errors.email).toEqual(["Enter a valid email address."]);
      expect(bad.errors.password).toEqual(["This field is required."]);
    }
  });

  it("checks codes, passwords, roles and repeated group fields", () => {
    expect(
      parseForm(
        secondFactorSchema("es"),
        form([
          ["method", "totp"],
          ["code", "12345"],
        ]),
      ).ok,
    ).toBe(false);
    expect(
      parseForm(
        secondFactorSchema("es"),
        form([
          ["method", "totp"],
          ["code", "123456"],
        ]),
      ).ok,
    ).toBe(true);
    const setup = parseForm(
      setupSchema("es"),
      form([
        ["organizationName", "Org"],
        ["name", "Ana"],
        ["email", "a@b.es"],
        ["password", "corta"],
      ]),
    );
    expect(setup.ok ? [] : setup.errors.password).toEqual(["La contraseña debe tener entre 12 y 256 caracteres."]);
    const invite = parseForm(
      inviteSchema("en"),
      form([
        ["email", "b@c.es"],
        ["role", "admin"],
        ["locale", "en"],
        ["groups", "g1"],
        ["groups", "g2"],
      ]),
      ["groups"],
    );
    expect(invite).toEqual({ ok: true, data: { email: "b@c.es", role: "admin", locale: "en", groups: ["g1", "g2"] } });
    expect(
      parseForm(
        inviteSchema("en"),
        form([
          ["email", "b@c.es"],
          ["role", "root"],
          ["locale", "fr"],
        ]),
      ).ok,
    ).toBe(false);
  });
});
