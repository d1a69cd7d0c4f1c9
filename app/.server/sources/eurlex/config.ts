/** EUR-Lex's settings: the site (OJ L feed), Cellar's SPARQL endpoint and Cellar (texts). */
import type { SourceConfig } from "../plugin.ts";
import { httpUrlSetting } from "../settings.ts";

/** EUR-Lex's and Cellar's own addresses (the variables' defaults; where the bundled sample was recorded). */
export const EURLEX_OFFICIAL_URLS = {
  eurlexUrl: "https://eur-lex.europa.eu",
  cellarSparqlUrl: "https://publications.europa.eu/webapi/rdf/sparql",
  cellarUrl: "https://publications.europa.eu",
} as const;

const env = {
  EURLEX_URL: httpUrlSetting().default(EURLEX_OFFICIAL_URLS.eurlexUrl),
  CELLAR_SPARQL_URL: httpUrlSetting().default(EURLEX_OFFICIAL_URLS.cellarSparqlUrl),
  CELLAR_URL: httpUrlSetting().default(EURLEX_OFFICIAL_URLS.cellarUrl),
};

export interface EurlexSettings {
  eurlexUrl: string;
  cellarSparqlUrl: string;
  cellarUrl: string;
}

export const eurlexConfig: SourceConfig<typeof env, EurlexSettings> = {
  env,
  read: (values) => ({
    eurlexUrl: values.EURLEX_URL,
    cellarSparqlUrl: values.CELLAR_SPARQL_URL,
    cellarUrl: values.CELLAR_URL,
  }),
};
