/** The Spanish and English catalogs and legal texts say the same things: same keys, same list lengths, nothing empty. */
import { describe, expect, it } from "vitest";
import { legalTexts as enLegal } from "../content/legal/en.ts";
import { legalTexts as esLegal } from "../content/legal/es.ts";
import { app as enApp } from "./en/app.ts";
import { en } from "./en/index.ts";
import { alerts as esAlerts } from "./es/alerts.ts";
import { app as esApp } from "./es/app.ts";
import { es } from "./es/index.ts";

/** Every path to a leaf, with array indices: two catalogs with equal shapes give equal lists. */
function paths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => paths(item, `${prefix}[${i}]`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => paths(item, prefix ? `${prefix}.${key}` : key));
  return [prefix];
}

function emptyLeaves(value: unknown): string[] {
  return paths(value).filter((path) => {
    const leaf = path
      .split(/\.|\[|\]/)
      .filter(Boolean)
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], value);
    return typeof leaf === "string" && leaf.trim() === "" && !path.endsWith(".after");
  });
}

describe("message catalogs", () => {
  it("have the same keys and list lengths in Spanish and English", () => {
    expect(paths(en).sort()).toEqual(paths(es).sort());
    expect(paths(enLegal).sort()).toEqual(paths(esLegal).sort());
  });

  it("leave no text empty", () => {
    expect(emptyLeaves(es)).toEqual([]);
    expect(emptyLeaves(en)).toEqual([]);
  });

  it("address the reader as tú in Spanish, never vosotros", () => {
    const text = JSON.stringify(es) + JSON.stringify(esLegal);
    expect(text).not.toMatch(/\b(vuestr[oa]s?|operáis|podéis|tenéis|queréis|sois|estáis|recibís|habéis)\b/i);
  });

  it("address the platform's user as tú too, never usted", () => {
    const text = JSON.stringify(esApp) + JSON.stringify(esAlerts);
    // Formal imperatives and possessives the platform's first copy used.
    expect(text).not.toMatch(
      /\b(usted|escriba|elija|compruebe|vuelva|espere|inténtelo|acceda|cree|indique|pida|configure|escanee|copie|guarde|confirme|inicie|su (cuenta|correo|contraseña|aplicación|nombre|sesión|conexión)|sus (códigos|otras))\b/i,
    );
    expect(paths(enApp).sort()).toEqual(paths(esApp).sort());
  });

  it("use one word for the demo in each language", () => {
    const text = (catalog: unknown) => JSON.stringify(catalog);
    expect(text(es) + text(esLegal)).not.toMatch(/demostraci[oó]n/i);
    expect(text(en) + text(enLegal)).not.toMatch(/book a demo/i);
  });
});
