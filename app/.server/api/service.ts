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
}

export async function createApiServices(config: Config, database: Database): Promise<ApiServices> {
  return {
    database,
    limiter: await createApiRateLimiter(config.apiRateLimitPerMinute, database.pool),
    siteUrl: config.siteUrl,
  };
}
