/** The alert pages' catalogs: same keys in Spanish and English, nothing empty, Spanish in tú (never usted). */
import { describe, expect, it } from "vitest";
import { alerts as enAlerts } from "./en/alerts.ts";
import { channels as enChannels } from "./en/channels.ts";
import { alerts as esAlerts } from "./es/alerts.ts";
import { channels as esChannels } from "./es/channels.ts";

// The alert pages and what the channels say outside the platform (mails, chat, webhook input).
const es = { ...esAlerts, channels: esChannels };
const en = { ...enAlerts, channels: enChannels };

function leaves(value: unknown, prefix = ""): [string, string][] {
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => leaves(item, prefix ? `${prefix}.${key}` : key));
  return [[prefix, String(value)]];
}

describe("alerts catalogs", () => {
  it("have the same keys and no empty text", () => {
    expect(leaves(en).map(([key]) => key)).toEqual(leaves(es).map(([key]) => key));
    expect([...leaves(es), ...leaves(en)].filter(([, text]) => text.trim() === "")).toEqual([]);
  });

  it("keep the same {placeholders} in both languages", () => {
    const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
    const english = new Map(leaves(en));
    for (const [key, text] of leaves(es))
      expect([key, placeholders(english.get(key) ?? "")]).toEqual([key, placeholders(text)]);
  });

  it("address the reader as tú in Spanish", () => {
    const text = JSON.stringify(es);
    expect(text).not.toMatch(/\b(usted|ustedes|su cuenta|sus perfiles|indique|escriba|revise|pruebe)\b/i);
    expect(text).toMatch(/\btus perfiles\b/);
  });
});
