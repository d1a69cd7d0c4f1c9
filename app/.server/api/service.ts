/** What the REST API's routes need from the process: the database and the per-token rate limiter. */
import type { Config } from "../config.ts";
import type { RateLimiter } from "../contact/rate-limit.ts";
import type { Database } from "../db/client.ts";
import { createApiRateLimiter } from "./rate-limit.ts";

export interface ApiServices {
  database: Database;
  limiter: RateLimiter;
  /** Public origin, for the OpenAPI document's server URL. */
  siteUrl: string;
  /** Outbound data flows (webhooks): the same settings the delivery worker runs with. */
  outbound: ApiOutboundSettings;
  /** FOLLOWS_MAX_PER_ORGANIZATION: follows of laws an organisation may hold (API and law pages). */
  maxFollowsPerOrganization: number;
  /** Whether this server polls sources (INGEST_SOURCES not none): a pending law's next check. */
  ingesting: boolean;
}

export interface ApiOutboundSettings {
  /** WEBHOOKS_ALLOW_PRIVATE_URLS=1 (test receivers on loopback only). */
  allowPrivateUrls: boolean;
  /** WEBHOOKS_MAX_PER_ORGANIZATION: subscriptions an organisation may hold. */
  maxWebhooksPerOrganization: number;
  /** ALERTS_RETRY_WINDOW_MS: the retry window a resumed webhook's deliveries get (default 24 h). */
  retryWindowMs?: number;
}

export async function createApiServices(config: Config, database: Database): Promise<ApiServices> {
  return {
    database,
    limiter: await createApiRateLimiter(config.apiRateLimitPerMinute, database.pool),
    siteUrl: config.siteUrl,
    outbound: {
      allowPrivateUrls: config.alerts.allowPrivateWebhookUrls,
      maxWebhooksPerOrganization: config.alerts.maxWebhooksPerOrganization,
      retryWindowMs: config.alerts.retryWindowMs,
    },
    maxFollowsPerOrganization: config.alerts.maxFollowsPerOrganization,
    ingesting: config.sources.ingest.length > 0,
  };
}
