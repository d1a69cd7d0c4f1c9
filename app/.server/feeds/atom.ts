/**
 * A profile's Atom feed (RFC 4287), written by feedsmith (escaping, CDATA, dates); the project
 * only removes what XML 1.0 cannot carry (control characters, lone surrogates) from source text.
 * Each entry is one match: its id the match's (stable: a reader never shows it twice), its link
 * the platform's document page, the official document as a related link, published the day
 * the gazette published it, updated when the profile matched it, and why it matched.
 */
import { generateAtomFeed } from "feedsmith";
import { fill } from "../../components/app/messages.ts";
import { saved as en } from "../../i18n/en/saved.ts";
import { saved as es } from "../../i18n/es/saved.ts";
import { areas, jurisdictions, kinds, relevances } from "../../lib/taxonomy.ts";
import { readWhy, whyParts } from "../alerts/why.ts";
import { httpUrlOrEmpty } from "../documents/reach.ts";
import type { FeedEntry, FeedHolder } from "./content.ts";

/** The text without what XML 1.0 cannot carry: C0 controls but tab, LF and CR, lone surrogates, U+FFFE and U+FFFF. */
export function xmlSafe(value: string): string {
  let out = "";
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    const control = code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;
    const lone = code >= 0xd800 && code <= 0xdfff;
    if (!control && !lone && code !== 0xfffe && code !== 0xffff) out += char;
  }
  return out;
}

type Named = readonly { id: string; name: { es: string; en: string } }[];

/** "area:aml,banking" → "área Blanqueo de capitales, Banca"; unknown shapes as they are. */
export function reasonText(reason: string, locale: "es" | "en"): string {
  const t = (locale === "en" ? en : es).feed.reasons;
  if (reason === "all") return t.all;
  const colon = reason.indexOf(":");
  if (colon < 0) return reason;
  const kind = reason.slice(0, colon);
  const value = reason.slice(colon + 1);
  const names = (list: Named) =>
    value
      .split(",")
      .map((id) => list.find((entry) => entry.id === id)?.name[locale] ?? id)
      .join(", ");
  switch (kind) {
    case "area":
      return fill(t.area, { value: names(areas) });
    case "jurisdiction":
      return fill(t.jurisdiction, { value: names(jurisdictions) });
    case "kind":
      return fill(t.kind, { value: names(kinds) });
    case "relevance":
      return fill(t.relevance, { value: names(relevances) });
    case "source":
      return fill(t.source, { value });
    case "keywords":
      return fill(t.keywords, { value: value.split(",").join(", ") });
    case "query":
      return fill(t.query, { value });
    default:
      return reason;
  }
}

/** Why an entry matched, in words: the match's why (decision 0148), or an older match's reason strings. */
export function whyOf(reasons: unknown, locale: "es" | "en"): string {
  const why = readWhy(reasons);
  if (why) return xmlSafe(whyParts(why, locale).join("; "));
  if (!Array.isArray(reasons)) return "";
  return reasons
    .filter((reason): reason is string => typeof reason === "string")
    .map((reason) => reasonText(xmlSafe(reason), locale))
    .join("; ");
}

export function writeProfileAtom(
  holder: FeedHolder,
  entries: readonly FeedEntry[],
  options: { feedId: string; siteUrl: string; now?: Date },
): string {
  const t = (holder.locale === "en" ? en : es).feed;
  const site = options.siteUrl.replace(/\/$/, "");
  const name = xmlSafe(holder.profileName);
  const updated = entries[0]?.matchedAt ?? options.now ?? new Date();
  return generateAtomFeed({
    // The feed's id names the feed row, never the token: the URL is the secret.
    id: `urn:uuid:${options.feedId}`,
    title: { value: fill(t.feedTitle, { name }), type: "text" },
    subtitle: { value: fill(t.feedSubtitle, { name }), type: "text" },
    updated,
    generator: { text: "Vigía Normativo", uri: site },
    links: [{ href: `${site}/app/alerts`, rel: "alternate", type: "text/html" }],
    entries: entries.map((entry) => {
      const official = httpUrlOrEmpty(entry.officialUrl);
      const why = whyOf(entry.reasons, holder.locale);
      const published = `${entry.publishedOn}T00:00:00Z`;
      return {
        id: `urn:uuid:${entry.matchId}`,
        title: { value: xmlSafe(entry.title), type: "text" },
        links: [
          { href: `${site}/app/documents/${entry.documentId}`, rel: "alternate", type: "text/html" },
          ...(official ? [{ href: official, rel: "related", title: t.official }] : []),
        ],
        published: Number.isNaN(Date.parse(published)) ? entry.matchedAt : new Date(published),
        updated: entry.matchedAt,
        summary: {
          value: [fill(t.published, { date: entry.publishedOn }), why ? fill(t.why, { reasons: why }) : ""]
            .filter(Boolean)
            .join(". "),
          type: "text",
        },
        categories: [{ term: xmlSafe(entry.sourceId) }],
      };
    }),
  });
}
