/**
 * Source clients: fetch + parse, provenance per payload. Base URLs come from config.sources.
 * Requests are paced per source ("boe"; "eurlex" for the RSS feed; "cellar" for SPARQL and
 * the texts; "feed:{host}" for admins' feeds) by the instance's pacer (pacing.ts).
 */

import type { Provenance, SourceDocument } from "../documents/types.ts";
import { type OutboundPolicy, outboundFetch } from "../net/outbound.ts";
import { BOE_DOCUMENT_PARSER, parseBoeDocument } from "./boe/document.ts";
import { BOE_SUMMARY_PARSER, type BoeSummary, type BoeSummaryItem, parseBoeSummary } from "./boe/summary.ts";
import { parseAt } from "./errors.ts";
import {
  CELLAR_METADATA_PARSER,
  CELLAR_TEXT_PARSER,
  type EurlexMetadata,
  parseCellarMetadata,
  parseCellarText,
} from "./eurlex/cellar.ts";
import { EURLEX_FEED_PARSER, type EurlexFeedEntry, parseEurlexFeed } from "./eurlex/feed.ts";
import { CELLAR_RELATIONS_PARSER, cellarRelationsQuery, parseCellarRelations } from "./eurlex/relations.ts";
import { FEED_PARSER, type FeedEntry, parseFeed } from "./feeds/feed.ts";
import {
  createSourceHttp,
  type FetchedPayload,
  productUserAgent,
  SourceFetchError,
  type SourceHttpOptions,
  type Validators,
} from "./http.ts";
import { createSourcePacer, instancePacer } from "./pacing.ts";

export interface SourceUrls {
  boeApiUrl: string;
  eurlexUrl: string;
  cellarSparqlUrl: string;
  cellarUrl: string;
}

export interface ClientOptions extends Partial<Omit<SourceHttpOptions, "userAgent" | "source" | "fetch">> {
  urls: SourceUrls;
  siteUrl: string;
  /**
   * The outbound guard's policy for admins' feeds (their URLs are typed by users; BOE and EUR-Lex
   * bases are the operator's). Default: private addresses refused.
   */
  feedPolicy?: OutboundPolicy;
  /**
   * The payloads are the bundled recorded sample, replayed from `urls`: provenance then names
   * these official addresses (where the bytes were recorded) and says `sample: true`.
   */
  recordedFrom?: SourceUrls;
}

/** Largest feed document fetched. */
const maxFeedBytes = 5 * 1024 * 1024;

export const provenanceOf = (payload: FetchedPayload, parser: string): Provenance => ({
  url: payload.url,
  fetchedAt: payload.fetchedAt,
  sha256: payload.sha256,
  parser,
});

export interface Parsed<T> {
  value: T;
  provenance: Provenance;
}

/** A summary answer's version: its validators and the bytes' SHA-256 (for sources that ignore them). */
export interface SummaryVersion extends Validators {
  sha256: string;
}

export type BoeSummaryCheck =
  | { status: "none" }
  | { status: "unchanged" }
  | { status: "changed"; summary: Parsed<BoeSummary>; version: SummaryVersion };

export function createSourceClients(options: ClientOptions) {
  const userAgent = productUserAgent(options.siteUrl);
  // One pacer for every source of this client set: the instance's, unless a test asks for a rate.
  const pacer =
    options.pacer ??
    (options.perSecond !== undefined ? createSourcePacer({ perSecond: options.perSecond }) : instancePacer());
  const httpOptions = { userAgent, ...options, pacer };
  const boeHttp = createSourceHttp({ ...httpOptions, source: "boe" });
  const eurlexHttp = createSourceHttp({ ...httpOptions, source: "eurlex" });
  const cellarHttp = createSourceHttp({ ...httpOptions, source: "cellar" });
  // Admins' feeds reach any address an admin typed: through the outbound guard, every hop checked.
  const feedHttp = createSourceHttp({
    ...httpOptions,
    source: "feed",
    fetch: outboundFetch(options.feedPolicy ?? { allowPrivate: false }, {
      maxBytes: maxFeedBytes,
      timeoutMs: options.timeoutMs ?? 20_000,
    }),
  });
  const { urls } = options;
  /** A feed's lane: its host's, which is a source's own lane when the feed is on that source's host (one limit per host). */
  const feedLane = (url: string) => {
    const host = hostOf(url);
    if (host === hostOf(urls.boeApiUrl)) return "boe";
    if (host === hostOf(urls.eurlexUrl)) return "eurlex";
    if (host === hostOf(urls.cellarUrl) || host === hostOf(urls.cellarSparqlUrl)) return "cellar";
    return `feed:${host}`;
  };
  /** A payload's provenance; for the sample, the official URL it was recorded from, marked sample. */
  const provenance = (payload: FetchedPayload, parser: string, base: keyof SourceUrls): Provenance => {
    const own = provenanceOf(payload, parser);
    const official = options.recordedFrom?.[base];
    if (!official) return own;
    const url = payload.url.startsWith(urls[base]) ? official + payload.url.slice(urls[base].length) : payload.url;
    return { ...own, url, sample: true };
  };
  const summaryUrl = (date: string) => `${urls.boeApiUrl}/datosabiertos/api/boe/sumario/${date.replaceAll("-", "")}`;

  /**
   * The BOE summary unless it is still the version `seen`: a conditional request (ETag,
   * Last-Modified) and, for a server that ignores it, the same bytes count as unchanged.
   */
  async function boeSummaryIfChanged(
    date: string,
    seen: SummaryVersion | undefined,
    options: { urgent?: boolean } = {},
  ): Promise<BoeSummaryCheck> {
    const url = summaryUrl(date);
    const payload = await boeHttp.request(url, {
      headers: { accept: "application/json" },
      urgent: options.urgent === true,
      ...(seen ? { ifChanged: seen } : {}),
    });
    if (payload.status === 404) return { status: "none" };
    if (payload.status === 304 || (seen && payload.sha256 === seen.sha256)) return { status: "unchanged" };
    return {
      status: "changed",
      summary: {
        value: parseAt(url, () => parseBoeSummary(payload.body, "json")),
        provenance: provenance(payload, BOE_SUMMARY_PARSER, "boeApiUrl"),
      },
      version: { sha256: payload.sha256, etag: payload.etag, lastModified: payload.lastModified },
    };
  }

  const notFound = (payload: FetchedPayload) => {
    if (payload.status === 404) throw new SourceFetchError(payload.url, "HTTP 404", 404);
  };

  /**
   * A Cellar SPARQL query over up to 100 CELEX numbers (only well-formed ones reach the query,
   * as typed literals: the index joins on them), parsed as metadata.
   */
  async function cellarQuery(
    query: (values: string) => string,
    celexNumbers: string[],
  ): Promise<Parsed<Map<string, EurlexMetadata>>> {
    return cellarAnswer(query, celexNumbers, parseCellarMetadata, CELLAR_METADATA_PARSER);
  }

  /** A SPARQL query over CELEX numbers (typed literals), its answer parsed by `parse`. */
  async function cellarAnswer<T>(
    query: (values: string) => string,
    celexNumbers: string[],
    parse: (body: string) => T,
    parser: string,
  ): Promise<Parsed<T>> {
    const values = celexNumbers
      .filter((c) => /^[0-9CE][0-9A-Z()_-]+$/.test(c))
      .map((c) => `"${c}"^^xsd:string`)
      .join(" ");
    const payload = await cellarHttp.request(urls.cellarSparqlUrl, {
      method: "POST",
      headers: { "content-type": "application/sparql-query", accept: "application/sparql-results+json" },
      body: query(values),
    });
    notFound(payload);
    return {
      value: parseAt(urls.cellarSparqlUrl, () => parse(payload.body)),
      provenance: provenance(payload, parser, "cellarSparqlUrl"),
    };
  }

  return {
    /** The BOE summary of a day (YYYY-MM-DD); null when there is no issue (404). */
    async boeSummary(date: string, options: { urgent?: boolean } = {}): Promise<Parsed<BoeSummary> | null> {
      const check = await boeSummaryIfChanged(date, undefined, options);
      return check.status === "changed" ? check.summary : null;
    },
    boeSummaryIfChanged,
    /** One BOE document; its XML URL is built from the configured base (the summary's absolute URL names the real host). */
    async boeDocument(
      item: BoeSummaryItem,
      options: { urgent?: boolean } = {},
    ): Promise<{ doc: SourceDocument; payload: FetchedPayload }> {
      const url = `${urls.boeApiUrl}/diario_boe/xml.php?id=${encodeURIComponent(item.sourceId)}`;
      const payload = await boeHttp.request(url, {
        headers: { accept: "application/xml" },
        urgent: options.urgent === true,
      });
      notFound(payload);
      const doc = parseAt(url, () => parseBoeDocument(payload.body, item));
      doc.provenance.push(provenance(payload, BOE_DOCUMENT_PARSER, "boeApiUrl"));
      return { doc, payload };
    },
    async eurlexFeed(): Promise<Parsed<EurlexFeedEntry[]>> {
      const url = `${urls.eurlexUrl}/ES/display-feed.rss?rssId=222`;
      const payload = await eurlexHttp.request(url, { headers: { accept: "application/rss+xml, application/xml" } });
      notFound(payload);
      return {
        value: parseAt(url, () => parseEurlexFeed(payload.body)),
        provenance: provenance(payload, EURLEX_FEED_PARSER, "eurlexUrl"),
      };
    },
    /** Metadata of up to 100 CELEX numbers in one SPARQL query. */
    cellarMetadata: (celexNumbers: string[]) =>
      cellarQuery(
        (values) => `PREFIX cdm: <http://publications.europa.eu/ontology/cdm#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
SELECT DISTINCT ?celex ?eli ?title ?date ?entryForce ?endValidity ?force ?rtype ?author WHERE {
  VALUES ?celex { ${values} }
  ?work cdm:resource_legal_id_celex ?celex .
  OPTIONAL { ?work cdm:resource_legal_eli ?eli }
  OPTIONAL { ?work cdm:work_date_document ?date }
  OPTIONAL { ?work cdm:resource_legal_date_entry-into-force ?entryForce }
  OPTIONAL { ?work cdm:resource_legal_date_end-of-validity ?endValidity }
  OPTIONAL { ?work cdm:resource_legal_in-force ?force }
  OPTIONAL { ?work cdm:work_has_resource-type ?rtype }
  OPTIONAL { ?work cdm:work_created_by_agent ?author }
  OPTIONAL { ?e cdm:expression_belongs_to_work ?work ; cdm:expression_title ?title ;
             cdm:expression_uses_language ?lang .
             FILTER(?lang IN (<http://publications.europa.eu/resource/authority/language/SPA>,
                              <http://publications.europa.eu/resource/authority/language/ENG>)) }
}`,
        celexNumbers,
      ),
    /**
     * The EuroVoc concepts and directory codes of up to 100 CELEX numbers, with their Spanish
     * and English labels: a query of its own, so that an answer Cellar refuses or times out
     * costs the acts their subjects, not their facts (ingest.ts stores them without). Two UNION
     * branches: one row per concept or code and label, not their product.
     */
    cellarSubjects: (celexNumbers: string[]) =>
      cellarQuery(
        (values) => `PREFIX cdm: <http://publications.europa.eu/ontology/cdm#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
SELECT DISTINCT ?celex ?eurovoc ?eurovocLabel ?directory ?directoryLabel WHERE {
  VALUES ?celex { ${values} }
  ?work cdm:resource_legal_id_celex ?celex .
  {
    ?work cdm:work_is_about_concept_eurovoc ?eurovoc .
    OPTIONAL { ?eurovoc skos:prefLabel ?eurovocLabel . FILTER(lang(?eurovocLabel) IN ("es", "en")) }
  } UNION {
    ?work cdm:resource_legal_is_about_concept_directory-code ?directory .
    OPTIONAL { ?directory skos:prefLabel ?directoryLabel . FILTER(lang(?directoryLabel) IN ("es", "en")) }
  }
}`,
        celexNumbers,
      ),
    /**
     * The acts that up to 100 CELEX numbers amend, repeal or correct (eurlex/relations.ts): a query of
     * its own, as the subjects', so that a refused or slow answer costs the acts these lines only.
     */
    cellarRelations: (celexNumbers: string[]) =>
      cellarAnswer(cellarRelationsQuery, celexNumbers, parseCellarRelations, CELLAR_RELATIONS_PARSER),
    /** The act's XHTML text, Spanish first, English as fallback; null when neither exists. */
    async cellarText(celex: string) {
      for (const [lang, language] of [
        ["spa", "es"],
        ["eng", "en"],
      ] as const) {
        const url = `${urls.cellarUrl}/resource/celex/${encodeURIComponent(celex)}`;
        const payload = await cellarHttp.request(url, {
          headers: { accept: "application/xhtml+xml", "accept-language": lang },
        });
        if (payload.status === 404) continue;
        // The replay (and Cellar for some acts) answers one language whatever is asked: read the lang attribute.
        const declared = /<html[^>]*\blang="([a-z]{2})/i.exec(payload.body)?.[1]?.toLowerCase();
        const textLanguage =
          declared === "es" || declared === "en" ? declared : (guessLanguage(payload.body) ?? language);
        return {
          paragraphs: parseAt(url, () => parseCellarText(payload.body)),
          language: textLanguage,
          provenance: provenance(payload, CELLAR_TEXT_PARSER, "cellarUrl"),
        };
      }
      return null;
    },
    async feed(url: string): Promise<Parsed<FeedEntry[]>> {
      const payload = await feedHttp.request(url, {
        headers: { accept: "application/rss+xml, application/atom+xml, application/xml" },
        source: feedLane(url),
      });
      notFound(payload);
      return { value: parseAt(url, () => parseFeed(payload.body)), provenance: provenanceOf(payload, FEED_PARSER) };
    },
  };
}

export type SourceClients = ReturnType<typeof createSourceClients>;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** "es" or "en" from common function words, when a payload does not declare its language. */
export function guessLanguage(text: string): "es" | "en" | undefined {
  const sample = text.slice(0, 60_000).toLowerCase();
  const count = (re: RegExp) => sample.match(re)?.length ?? 0;
  const es = count(/\s(de|la|los|las|del|que|por|para|el)\s/g);
  const en = count(/\s(the|of|and|to|which|shall|for|by)\s/g);
  if (es === 0 && en === 0) return undefined;
  return es > en ? "es" : "en";
}
