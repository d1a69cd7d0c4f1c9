/**
 * Calls the REST API's route modules in-process with the router context the server builds
 * (real database, real rate limiter), and checks answers against the served OpenAPI document.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { RouterContextProvider } from "react-router";
import { createApiRateLimiter } from "../../app/.server/api/rate-limit.ts";
import type { ApiServices } from "../../app/.server/api/service.ts";
import { type AppServices, requestContext, servicesContext } from "../../app/.server/context.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createLogger } from "../../app/.server/logger.ts";
import * as auditRoute from "../../app/routes/api/audit.ts";
import * as auditVerifyRoute from "../../app/routes/api/audit-verify.ts";
import * as correctionsRoute from "../../app/routes/api/corrections.ts";
import * as documentRoute from "../../app/routes/api/document.ts";
import * as documentCorrectionsRoute from "../../app/routes/api/document-corrections.ts";
import * as documentObligationsRoute from "../../app/routes/api/document-obligations.ts";
import * as documentTriageRoute from "../../app/routes/api/document-triage.ts";
import * as documentsRoute from "../../app/routes/api/documents.ts";
import * as followRoute from "../../app/routes/api/follow.ts";
import * as followsRoute from "../../app/routes/api/follows.ts";
import * as lawRoute from "../../app/routes/api/law.ts";
import * as lawBlockVersionsRoute from "../../app/routes/api/law-block-versions.ts";
import * as lawCatalogueRoute from "../../app/routes/api/law-catalogue.ts";
import * as lawCompareRoute from "../../app/routes/api/law-compare.ts";
import * as lawObligationsRoute from "../../app/routes/api/law-obligations.ts";
import * as lawTextRoute from "../../app/routes/api/law-text.ts";
import * as lawsRoute from "../../app/routes/api/laws.ts";
import * as notFoundRoute from "../../app/routes/api/not-found.ts";
import * as obligationRoute from "../../app/routes/api/obligation.ts";
import * as obligationReviewRoute from "../../app/routes/api/obligation-review.ts";
import * as obligationsRoute from "../../app/routes/api/obligations.ts";
import * as openApiRoute from "../../app/routes/api/openapi.ts";
import * as sourceRunRoute from "../../app/routes/api/source-run.ts";
import * as sourcesRoute from "../../app/routes/api/sources.ts";
import * as taxonomyRoute from "../../app/routes/api/taxonomy.ts";
import * as triageRoute from "../../app/routes/api/triage.ts";
import * as webhookRoute from "../../app/routes/api/webhook.ts";
import * as webhooksRoute from "../../app/routes/api/webhooks.ts";

type RouteModule = {
  loader: (args: never) => Promise<Response> | Response;
  action: (args: never) => Promise<Response> | Response;
};

/** The routes by path, as app/routes.ts maps them. */
const routes: Record<string, RouteModule> = {
  "/api/v1/audit": auditRoute,
  "/api/v1/audit/verify": auditVerifyRoute,
  "/api/v1/corrections": correctionsRoute,
  "/api/v1/documents": documentsRoute,
  "/api/v1/follows": followsRoute,
  "/api/v1/laws": lawsRoute,
  "/api/v1/laws/catalogue": lawCatalogueRoute,
  "/api/v1/openapi.json": openApiRoute,
  "/api/v1/sources": sourcesRoute,
  "/api/v1/taxonomy": taxonomyRoute,
  "/api/v1/triage": triageRoute,
  "/api/v1/obligations": obligationsRoute,
  "/api/v1/webhooks": webhooksRoute,
};

export async function apiServicesFor(
  database: Database,
  perMinute = 600,
  outbound: Partial<ApiServices["outbound"]> = {},
  more: Partial<Pick<ApiServices, "maxFollowsPerOrganization" | "ingesting">> = {},
): Promise<ApiServices> {
  return {
    database,
    limiter: await createApiRateLimiter(perMinute, database.pool),
    siteUrl: "http://127.0.0.1:3000",
    outbound: { allowPrivateUrls: false, maxWebhooksPerOrganization: 25, ...outbound },
    maxFollowsPerOrganization: 200,
    ingesting: true,
    ...more,
  };
}

export interface CallOptions {
  token?: string | undefined;
  method?: string;
  headers?: Record<string, string>;
  clientIp?: string;
  body?: string;
  /** More of the router context's services (ingestJobs, config) for routes that use them. */
  services?: Partial<AppServices>;
}

/** Routes with a path parameter, as app/routes.ts maps them. */
const paramRoutes: Array<[RegExp, RouteModule]> = [
  [/^\/api\/v1\/webhooks\/([^/]+)$/, webhookRoute],
  [/^\/api\/v1\/documents\/([^/]+)$/, documentRoute],
  [/^\/api\/v1\/documents\/([^/]+)\/corrections$/, documentCorrectionsRoute],
  [/^\/api\/v1\/documents\/([^/]+)\/triage$/, documentTriageRoute],
  [/^\/api\/v1\/documents\/([^/]+)\/obligations$/, documentObligationsRoute],
  [/^\/api\/v1\/obligations\/([^/]+)$/, obligationRoute],
  [/^\/api\/v1\/obligations\/([^/]+)\/review$/, obligationReviewRoute],
  [/^\/api\/v1\/sources\/([^/]+)\/run$/, sourceRunRoute],
  [/^\/api\/v1\/follows\/([^/]+)$/, followRoute],
  [/^\/api\/v1\/laws\/([^/]+)$/, lawRoute],
  [/^\/api\/v1\/laws\/([^/]+)\/text$/, lawTextRoute],
  [/^\/api\/v1\/laws\/(?<id>[^/]+)\/blocks\/(?<blockId>[^/]+)\/versions$/, lawBlockVersionsRoute],
  [/^\/api\/v1\/laws\/([^/]+)\/compare$/, lawCompareRoute],
  [/^\/api\/v1\/laws\/([^/]+)\/obligations$/, lawObligationsRoute],
];

export async function callApi(api: ApiServices, pathAndQuery: string, options: CallOptions = {}): Promise<Response> {
  const url = new URL(pathAndQuery, "http://127.0.0.1:3000");
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const request = new Request(url, {
    method: options.method ?? "GET",
    headers,
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  const context = new RouterContextProvider();
  context.set(servicesContext, { api, log: createLogger("silent"), ...options.services } as unknown as AppServices);
  context.set(requestContext, {
    requestId: "test",
    nonce: "test-nonce",
    clientIp: options.clientIp ?? "198.51.100.20",
    secure: false,
    log: createLogger("silent"),
  });
  let module = routes[url.pathname] ?? notFoundRoute;
  let params = {};
  // A static path wins over a pattern (/api/v1/laws/catalogue is not the law "catalogue"), as in the router.
  for (const [pattern, candidate] of routes[url.pathname] ? [] : paramRoutes) {
    const match = pattern.exec(url.pathname);
    const id = match?.[1];
    if (id !== undefined) {
      module = candidate;
      params = match?.groups
        ? Object.fromEntries(Object.entries(match.groups).map(([k, v]) => [k, decodeURIComponent(v)]))
        : { id: decodeURIComponent(id) };
    }
  }
  const args = { request, context, params } as never;
  const method = request.method;
  return method === "GET" || method === "HEAD" ? module.loader(args) : module.action(args);
}

type JsonObject = Record<string, unknown>;

/** Checks an answer against the schema the OpenAPI document declares for it. */
export function openApiChecker(document: JsonObject) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === "object") {
      const ref = (value as JsonObject).$ref;
      if (typeof ref === "string" && ref.startsWith("#/")) {
        const target = ref
          .slice(2)
          .split("/")
          .reduce<unknown>((node, key) => (node as JsonObject)?.[key], document);
        return resolve(target);
      }
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item)]));
    }
    return value;
  };
  return {
    /** Errors of `body` against the declared schema of (path, method, status, media type); [] when it matches. */
    check(path: string, method: string, status: number, body: unknown, mediaType = "application/json"): string[] {
      const operation = ((document.paths as JsonObject)[path] as JsonObject | undefined)?.[method] as
        | JsonObject
        | undefined;
      if (!operation) return [`no operation ${method} ${path}`];
      const response = resolve((operation.responses as JsonObject)[String(status)]) as JsonObject | undefined;
      if (!response) return [`status ${status} not declared for ${method} ${path}`];
      const schema = ((response.content as JsonObject | undefined)?.[mediaType] as JsonObject | undefined)?.schema;
      if (!schema) return [`no ${mediaType} schema for ${status}`];
      const validate = ajv.compile(schema as JsonObject);
      return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    },
    /** Errors of a JSON request body against the operation's declared request body; [] when it matches. */
    checkRequest(path: string, method: string, body: unknown): string[] {
      const operation = ((document.paths as JsonObject)[path] as JsonObject | undefined)?.[method] as
        | JsonObject
        | undefined;
      const requestBody = resolve(operation?.requestBody) as JsonObject | undefined;
      const schema = ((requestBody?.content as JsonObject | undefined)?.["application/json"] as JsonObject | undefined)
        ?.schema;
      if (!schema) return [`no request body for ${method} ${path}`];
      const validate = ajv.compile(schema as JsonObject);
      return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    },
  };
}
