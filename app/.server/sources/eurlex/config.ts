/** EUR-Lex's settings: the site (OJ L feed), Cellar's SPARQL endpoint and Cellar (texts). */
import type { SourceConfig } from "../plugin.ts";
import { httpUrlSetting } from "../settings.ts";

const env = {
  EURLEX_URL: httpUrlSetting().default("https://eur-lex.europa.eu"),
  CELLAR_SPARQL_URL: httpUrlSetting().default("https://publications.europa.eu/webapi/rdf/sparql"),
  CELLAR_URL: httpUrlSetting().default("https://publications.europa.eu"),
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
