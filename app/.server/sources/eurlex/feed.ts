/**
 * The EUR-Lex OJ L RSS (rssId=222) → the acts it announces. Links name the act either by
 * CELEX (`uri=CELEX:32016R0679`) or by OJ reference (`uri=OJ:L_202601957`, act-by-act OJ
 * since October 2023). The CELEX comes from the link or the guid; for OJ-only entries it is
 * null and `ojReference` is set: the caller resolves it through SPARQL.
 */
import { guardParse } from "../errors.ts";
import { parseFeed } from "../feeds/feed.ts";

export const EURLEX_FEED_PARSER = "eurlex-feed@1";

export interface EurlexFeedEntry {
  /** e.g. "32016R0679"; null when the entry only names an OJ reference. */
  celex: string | null;
  /** e.g. "L_202601957" when the link names the OJ publication. */
  ojReference: string | null;
  title: string;
  link: string;
  /** YYYY-MM-DD, when the entry has a date. */
  publishedOn: string | null;
}

const CELEX = /CELEX(?::|%3A)([0-9CE][0-9]{4}[A-Z]{1,2}[0-9A-Z()_-]+)/i;
const OJ = /uri=OJ(?::|%3A)([A-Z]+_[0-9]{4,}[A-Z0-9._-]*)/i;

export function parseEurlexFeed(xml: string): EurlexFeedEntry[] {
  return guardParse(EURLEX_FEED_PARSER, () => {
    const out: EurlexFeedEntry[] = [];
    const seen = new Set<string>();
    for (const entry of parseFeed(xml)) {
      const celex = (CELEX.exec(entry.link)?.[1] ?? CELEX.exec(entry.id)?.[1] ?? null)?.toUpperCase() ?? null;
      const ojReference = OJ.exec(entry.link)?.[1] ?? OJ.exec(entry.id)?.[1] ?? null;
      if (!celex && !ojReference) continue;
      const key = celex ?? `OJ:${ojReference}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ celex, ojReference, title: entry.title, link: entry.link, publishedOn: entry.publishedOn ?? null });
    }
    return out;
  });
}
