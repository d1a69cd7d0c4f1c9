/**
 * The REST API's operations, each declared once with the zod schemas that validate its
 * request and describe its answers. Route modules handle them (handler.ts) and the OpenAPI
 * document is generated from them (openapi.ts), so the two cannot drift apart.
 *
 * To add an operation: declare it with defineOperation in a module under operations/, import
 * that module from operations/index.ts, and handle it in a route module under app/routes/api/.
 */
import type { z } from "zod";
import type { Locale } from "../../i18n/locales.ts";
import type { ApiScope } from "./tokens.ts";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** Who may call: anyone, any valid token, or an admin-scope token. */
export type OperationScope = "public" | ApiScope;

export interface ResponseSpec {
  description: string;
  /** The JSON body's schema; absent for answers without a body (204, 202). */
  schema?: z.ZodType | undefined;
  /** Other representations of the same answer, by media type (e.g. text/csv). */
  alternatives?: Record<string, { schema: z.ZodType }> | undefined;
}

export interface OperationSpec {
  method: HttpMethod;
  /** OpenAPI path template: /api/v1/documents/{id}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string | undefined;
  tags?: string[] | undefined;
  scope: OperationScope;
  /** Path parameters: a z.object of strings named as in the template. */
  params?: z.ZodObject | undefined;
  /** Query parameters: a z.object whose fields parse single string values. */
  query?: z.ZodObject | undefined;
  /** The query's schema as a request is validated (field errors in the caller's language); `query` otherwise. */
  queryFor?: ((context: BodyContext) => z.ZodObject) | undefined;
  /** JSON request body, as the OpenAPI document describes it. */
  body?: z.ZodType | undefined;
  /**
   * The body's schema as a request is validated: in the caller's language (field errors) and with
   * the running configuration (WEBHOOKS_ALLOW_PRIVATE_URLS). Without it, `body` validates.
   */
  bodyFor?: ((context: BodyContext) => z.ZodType) | undefined;
  /** Successful answers by status; the first is what a handler's plain value is sent with. */
  responses: Record<number, ResponseSpec>;
}

/** What a request's body validation depends on besides the schema. */
export interface BodyContext {
  locale: Locale;
  /** WEBHOOKS_ALLOW_PRIVATE_URLS=1: outbound URLs may name loopback and private addresses (test receivers). */
  allowPrivateUrls: boolean;
}

export type Operation<S extends OperationSpec = OperationSpec> = Readonly<S> & { readonly successStatus: number };

const operations = new Map<string, Operation>();

export function defineOperation<const S extends OperationSpec>(spec: S): Operation<S> {
  const statuses = Object.keys(spec.responses).map(Number);
  const successStatus = statuses.find((status) => status >= 200 && status < 300);
  if (successStatus === undefined) throw new Error(`${spec.operationId}: no 2xx response declared`);
  if (!spec.path.startsWith("/api/v1/")) throw new Error(`${spec.operationId}: path must start with /api/v1/`);
  for (const existing of operations.values()) {
    if (existing.operationId === spec.operationId && (existing.method !== spec.method || existing.path !== spec.path)) {
      throw new Error(`operationId ${spec.operationId} is used twice`);
    }
  }
  const operation = Object.freeze({ ...spec, successStatus }) as Operation<S>;
  // Keyed by method and path: a module evaluated again (development reloads) replaces its own.
  operations.set(`${spec.method} ${spec.path}`, operation);
  return operation;
}

/** Every operation declared so far, by path then method. */
export function registeredOperations(): Operation[] {
  return [...operations.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
