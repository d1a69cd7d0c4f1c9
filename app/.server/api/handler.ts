/**
 * One helper for every REST API route: rate limit, bearer token, scope, request parsing by the
 * operation's schemas, then the handler; JSON errors in the request's language and
 * `Cache-Control: no-store` on every answer. A route module is parse → call → return:
 *
 *   const route = apiRoute(handle(listAuditOperation, ({ query, token, api }) => …));
 *   export const loader = route.loader;
 *   export const action = route.action;
 */
import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import type { Locale } from "../../i18n/locales.ts";
import { fieldErrorsOf } from "../../lib/field-errors.ts";
import { type AppServices, type RequestInfo, requestContext, servicesContext } from "../context.ts";
import { zodLocales } from "../zod-locales.ts";
import { ApiError, apiHeaders, errorResponse, requestLocale } from "./errors.ts";
import type { HttpMethod, Operation, OperationSpec } from "./registry.ts";
import type { ApiServices } from "./service.ts";
import { type AuthenticatedToken, authenticateToken } from "./tokens.ts";

type Output<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface HandlerArgs<S extends OperationSpec> {
  request: Request;
  params: Output<S["params"]>;
  query: Output<S["query"]>;
  body: Output<S["body"]>;
  /** The caller's token; null only on public operations. */
  token: S["scope"] extends "public" ? AuthenticatedToken | null : AuthenticatedToken;
  api: ApiServices;
  services: AppServices;
  info: RequestInfo;
  locale: Locale;
}

/** A plain value is sent as JSON with the operation's first 2xx status; a Response as it is. */
export type Handler<S extends OperationSpec> = (args: HandlerArgs<S>) => Promise<unknown> | unknown;

export interface BoundOperation {
  operation: Operation;
  handler: Handler<OperationSpec>;
}

export function handle<S extends OperationSpec>(operation: Operation<S>, handler: Handler<S>): BoundOperation {
  return { operation, handler: handler as unknown as Handler<OperationSpec> };
}

interface RouteArgs {
  request: Request;
  params: Record<string, string | undefined>;
  context: Readonly<RouterContextProvider>;
}

const maxBodyBytes = 64 * 1024;

export function apiRoute(...bound: BoundOperation[]) {
  const byMethod = new Map<string, BoundOperation>(bound.map((b) => [b.operation.method.toUpperCase(), b]));
  const serve = (args: RouteArgs) => dispatch(byMethod, args);
  return { loader: serve, action: serve };
}

/** For paths under /api/v1 that no operation has: a JSON 404. */
export function apiNotFound({ request }: { request: Request }): Response {
  return errorResponse(new ApiError(404), requestLocale(request));
}

async function dispatch(byMethod: Map<string, BoundOperation>, args: RouteArgs): Promise<Response> {
  const { request, context } = args;
  const locale = requestLocale(request);
  const method = request.method === "HEAD" ? "GET" : request.method;
  const bound = byMethod.get(method);
  if (!bound) {
    const response = errorResponse(new ApiError(405), locale);
    response.headers.set("allow", [...byMethod.keys()].join(", "));
    return response;
  }
  const services = context.get(servicesContext);
  const info = context.get(requestContext);
  try {
    const api = services.api;
    const { operation, handler } = bound;
    const authorization = request.headers.get("authorization");
    const token = authorization ? await authenticateToken(api.database.db, authorization) : null;
    const limit = await api.limiter.consume(token ? `token:${token.tokenId}` : `ip:${info.clientIp}`);
    if (!limit.allowed) throw new ApiError(429, { retryAfterSeconds: limit.retryAfterSeconds });
    if (operation.scope !== "public") {
      if (!token) throw new ApiError(401);
      if (operation.scope === "admin" && token.scope !== "admin") throw new ApiError(403);
    }
    const context = { locale, allowPrivateUrls: api.outbound.allowPrivateUrls };
    const input = {
      params: await parsePart(operation.params, args.params, locale),
      query: await parsePart(
        operation.queryFor?.(context) ?? operation.query,
        queryObject(new URL(request.url).searchParams),
        locale,
      ),
      body: operation.body
        ? await parsePart(operation.bodyFor?.(context) ?? operation.body, await readJson(request), locale)
        : undefined,
    };
    const result = await handler({
      request,
      ...input,
      token,
      api,
      services,
      info,
      locale,
    } as HandlerArgs<OperationSpec>);
    if (result instanceof Response) {
      for (const [name, value] of Object.entries(apiHeaders)) result.headers.set(name, value);
      return result;
    }
    const status = operation.successStatus;
    if (result === undefined) return new Response(null, { status, headers: apiHeaders });
    return Response.json(result, { status, headers: { ...apiHeaders, "content-language": locale } });
  } catch (error) {
    if (error instanceof ApiError) {
      const response = errorResponse(error, locale);
      if (error.status === 401) response.headers.set("www-authenticate", 'Bearer realm="api"');
      return response;
    }
    info.log.error(
      { err: error, requestId: info.requestId, path: new URL(request.url).pathname },
      "api request failed",
    );
    return errorResponse(new ApiError(500), locale);
  }
}

/** Async: a URL field resolves its host name (the outbound guard). */
async function parsePart(schema: z.ZodType | undefined, value: unknown, locale: Locale): Promise<unknown> {
  if (!schema) return undefined;
  const result = await schema.safeParseAsync(value, { error: zodLocales[locale] });
  if (result.success) return result.data;
  throw new ApiError(422, { fieldErrors: fieldErrorsOf(result.error.issues, { fallback: "_", path: "joined" }) });
}

/** Query parameters as single values (the first of repeated ones). */
function queryObject(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of search) if (!(key in out)) out[key] = value;
  return out;
}

async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) throw new ApiError(415);
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBodyBytes) throw new ApiError(413);
  const text = await request.text();
  if (Buffer.byteLength(text) > maxBodyBytes) throw new ApiError(413);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400);
  }
}

export type { HttpMethod };
