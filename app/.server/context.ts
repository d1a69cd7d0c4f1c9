/** What every loader and action finds in the router context (built per request by ./app.ts). */
import { createContext } from "react-router";
import type { AlertsService } from "./alerts/service.ts";
import type { ApiServices } from "./api/service.ts";
import type { AuthService } from "./auth/service.ts";
import type { ClassifyService } from "./classify/service.ts";
import type { Config } from "./config.ts";
import type { ContactService } from "./contact/service.ts";
import type { Logger } from "./logger.ts";
import type { IngestJobs } from "./sources/jobs.ts";
import type { SampleLoader } from "./sources/sample.ts";

export interface AppServices {
  config: Config;
  log: Logger;
  /** Demo requests: store, rate limit, flash state for the no-JavaScript form. */
  contacts: ContactService;
  /** Platform sign-in, MFA, sessions, members and groups (issue 10, auth). */
  auth: AuthService;
  /** REST API (issue 10): database and per-token rate limiter for app/routes/api/. */
  api: ApiServices;
  /** Alerts (issue 13): SSE, matching, the delivery worker and its database. */
  alerts: AlertsService;
  /** Reclassification and organisations' own topics (issue 12). */
  classification: ClassifyService;
  /** Ingestion jobs' "run now" (POST /api/v1/sources/{id}/run, the Sources page); undefined in tests and in-memory runs. */
  ingestJobs?: IngestJobs | undefined;
  /** The bundled recorded sample's background load (setup page, Sources page); undefined in hand-built services. */
  sample?: SampleLoader | undefined;
}

export interface RequestInfo {
  requestId: string;
  /** The client's address: the socket peer, or X-Forwarded-For when TRUST_PROXY trusts it. */
  clientIp: string;
  /** HTTPS as seen by the visitor (the socket, or X-Forwarded-Proto when trusted). */
  secure: boolean;
  log: Logger;
  /** This response's CSP nonce: every inline script the app renders carries it. */
  nonce: string;
}

export const servicesContext = createContext<AppServices>();
export const requestContext = createContext<RequestInfo>();
