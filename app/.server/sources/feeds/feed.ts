/**
 * RSS 2.0 and Atom → FeedEntry[]. Pure; bad payloads throw SourceParseError only. Used for
 * the feeds admins add (regulators' news) and, through parseEurlexFeed, the EUR-Lex OJ feed.
 */
import { guardParse, SourceParseError } from "../errors.ts";
import { clean, isObj, list, type Obj, plainXmlParser, str, stripBom, xmlProblem } from "../xml.ts";

export const FEED_PARSER = "feed@1";
const P = FEED_PARSER;

export interface FeedEntry {
  /** guid / Atom id, else the link. */
  id: string;
  title: string;
  link: string;
  /** Plain text (markup removed), possibly empty. */
  summary: string;
  /** ISO 8601 timestamp when the entry carries a readable date. */
  publishedAt?: string;
  /** YYYY-MM-DD (UTC) of publishedAt. */
  publishedOn?: string;
}

const t = (value: unknown): string => clean(str(value, "#text"));

/** Removes tags and decodes the few entities left after XML parsing (feeds often escape HTML). */
function plain(text: string): string {
  return clean(
    text
      .replace(/<[^>]*>/g, " ")
      .replace(/&nbsp;/g, " ")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, "&"),
  );
}

function date(value: string): { publishedAt?: string; publishedOn?: string } {
  if (!value) return {};
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return {};
  const iso = new Date(ms).toISOString();
  return { publishedAt: iso, publishedOn: iso.slice(0, 10) };
}

function atomLink(entry: Obj): string {
  const links = list(entry.link).filter(isObj);
  const alternate = links.find((l) => !l.rel || l.rel === "alternate") ?? links[0];
  if (alternate) return str(alternate.href);
  return t(entry.link);
}

/** Parses an RSS 2.0 or Atom document. Throws SourceParseError when it is neither. */
export function parseFeed(xml: string): FeedEntry[] {
  return guardParse(P, () => {
    const text = stripBom(xml).trim();
    if (text === "") throw new SourceParseError(P, "empty payload");
    const problem = xmlProblem(text);
    if (problem) throw new SourceParseError(P, `malformed XML: ${problem}`);
    const root = plainXmlParser.parse(text) as Obj;
    const entries: FeedEntry[] = [];
    const rss = isObj(root.rss) ? root.rss : isObj(root["rdf:RDF"]) ? root["rdf:RDF"] : undefined;
    if (rss) {
      const channel = isObj(rss.channel) ? rss.channel : {};
      const items = [...list(channel.item), ...list(rss.item)].filter(isObj);
      for (const item of items) {
        const link = t(item.link);
        const id = t(item.guid) || link;
        const title = plain(t(item.title));
        if (!id && !title) continue;
        entries.push({
          id,
          title,
          link,
          summary: plain(t(item.description)),
          ...date(t(item.pubDate) || t(item["dc:date"])),
        });
      }
      return entries;
    }
    const feed = isObj(root.feed) ? root.feed : undefined;
    if (feed) {
      for (const entry of list(feed.entry).filter(isObj)) {
        const link = atomLink(entry);
        const id = t(entry.id) || link;
        const title = plain(t(entry.title));
        if (!id && !title) continue;
        entries.push({
          id,
          title,
          link,
          summary: plain(t(entry.summary) || t(entry.content)),
          ...date(t(entry.published) || t(entry.updated)),
        });
      }
      return entries;
    }
    throw new SourceParseError(P, "neither an RSS nor an Atom document");
  });
}
