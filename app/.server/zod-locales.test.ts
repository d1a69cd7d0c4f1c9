import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodLocales } from "./zod-locales.ts";

describe("zod messages", () => {
  const strict = z.object({ name: z.string() }).strict();

  it("names an unknown field «campo» in Spanish, as a Spanish developer expects", () => {
    const one = strict.safeParse({ name: "a", colour: "red" }, { error: zodLocales.es });
    expect(one.error?.issues[0]?.message).toBe('Campo desconocido: "colour"');
    const two = strict.safeParse({ name: "a", colour: "red", size: 1 }, { error: zodLocales.es });
    expect(two.error?.issues[0]?.message).toBe('Campos desconocidos: "colour", "size"');
    expect(two.error?.issues[0]?.message).not.toMatch(/llave/i);
  });

  it("keeps zod's own messages otherwise, in both languages", () => {
    expect(strict.safeParse({ name: 1 }, { error: zodLocales.es }).error?.issues[0]?.message).toMatch(
      /^Entrada inválida/,
    );
    expect(strict.safeParse({ name: "a", x: 1 }, { error: zodLocales.en }).error?.issues[0]?.message).toBe(
      'Unrecognized key: "x"',
    );
  });

  it("names the value given, not every allowed one, when an enum has many (issue 40)", () => {
    const areas = z.enum(["banking", "tax", "labour", "energy", "health", "transport", "data-protection", "aml"]);
    const es = areas.safeParse("bankin", { error: zodLocales.es }).error?.issues[0]?.message ?? "";
    expect(es).toBe(
      'Valor no admitido: "bankin". Los valores admitidos están en la descripción OpenAPI (/api/v1/openapi.json).',
    );
    const en = areas.safeParse("bankin", { error: zodLocales.en }).error?.issues[0]?.message ?? "";
    expect(en).toMatch(/^Value not allowed: "bankin"\. /);
    expect(en).not.toContain("transport");
    // A short list is still listed.
    const short = z.enum(["read", "admin"]).safeParse("write", { error: zodLocales.en }).error?.issues[0]?.message;
    expect(short).toContain('"read"');
  });
});
