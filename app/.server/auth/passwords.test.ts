import { describe, expect, it } from "vitest";
import { commonPasswords, passwordProblem } from "./passwords.ts";

describe("passwordProblem", () => {
  it("refuses short, common and repetitive passwords", () => {
    expect(passwordProblem("short1!")).toBe("too_short");
    expect(passwordProblem("password1234")).toBe("common");
    expect(passwordProblem("P@ssw0rd2024!")).toBe("common");
    expect(passwordProblem("Qwertyuiop123")).toBe("common");
    expect(passwordProblem("Contraseña123")).toBe("common");
    expect(passwordProblem("abcdabcdabcd")).toBe("common");
    expect(passwordProblem("x".repeat(300))).toBe("too_long");
  });

  it("accepts a long uncommon passphrase", () => {
    expect(passwordProblem("tortuga-verde-lunes-27")).toBeNull();
    expect(passwordProblem("correct horse battery staple")).toBeNull();
  });
});

describe("commonPasswords", () => {
  it("reads the whole compressed list once", () => {
    const list = commonPasswords();
    expect(list.size).toBe(10_558);
    expect(list.has("password")).toBe(true);
    expect(list.has("zxcvbnzxcvbn@123")).toBe(true);
    expect(commonPasswords()).toBe(list);
  });
});
