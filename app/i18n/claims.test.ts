/**
 * What the home page says the product covers is what the product has: the sources it names are
 * ingested (or are feeds an admin adds), the labels on its alert examples are the taxonomy's own,
 * the jurisdictions it names exist, and the chat tools it names are the ones deliveries format for.
 */
import { describe, expect, it } from "vitest";
import { chatFormat } from "../.server/alerts/channels/chat.ts";
import { sourceIds } from "../.server/alerts/taxonomy-ids.ts";
import { loadConfig } from "../.server/config.ts";
import { areas, jurisdictions } from "../lib/taxonomy.ts";
import { en } from "./en/index.ts";
import { es } from "./es/index.ts";

const catalogs = { es, en } as const;

describe.each(["es", "en"] as const)("home page claims (%s)", (locale) => {
  const home = catalogs[locale].home;
  const text = JSON.stringify(home);

  it("labels its alert examples with the taxonomy's own area and jurisdiction names", () => {
    const names = new Set([...areas, ...jurisdictions].map((entry) => entry.name[locale]));
    const tags = home.intro.feed.items.flatMap((item) => item.tags);
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.filter((tag) => !names.has(tag))).toEqual([]);
  });

  it("names only sources that run by default, or regulators' feeds an admin adds", () => {
    const running = loadConfig({ NODE_ENV: "test" }).sources.ingest;
    const [gazette, journal, ...feeds] = home.intro.sources;
    expect(gazette).toBe("BOE");
    expect(running).toContain("boe");
    expect(journal).toMatch(/EUR-Lex/);
    expect(running).toContain("eurlex");
    expect(sourceIds).toContain("feed");
    for (const feed of feeds) expect(feed).toMatch(/\(RSS\)$/);
    for (const item of home.intro.feed.items) {
      if (item.source === "BOE" || item.source === "EUR-Lex") continue;
      // Any other publisher in an example is one of the listed feeds.
      expect(
        feeds.some((feed) => feed.includes(item.source)),
        item.source,
      ).toBe(true);
    }
  });

  it("names jurisdictions the taxonomy has: the EU, the State and every autonomous community", () => {
    const ids = jurisdictions.map((entry) => entry.id);
    expect(ids).toContain("EU");
    expect(ids).toContain("ES");
    // 17 communities and the autonomous cities of Ceuta and Melilla.
    expect(ids.filter((id) => id.startsWith("ES-"))).toHaveLength(19);
    expect(text).toMatch(locale === "es" ? /comunidad autónoma/ : /autonomous community/);
  });

  it("names Slack and Microsoft Teams, the chat tools deliveries are formatted for", () => {
    expect(text).toContain("Slack");
    expect(text).toContain("Microsoft Teams");
    expect(chatFormat("https://hooks.slack.com/services/T000/B000/XXXX")).toBe("slack");
    expect(chatFormat("https://example.webhook.office.com/webhookb2/abc")).toBe("teams");
  });
});
