/**
 * The REST API's error answers: JSON `{ statusCode, statusMessage }` (plus `fieldErrors` on 422),
 * the message in the request's language (Accept-Language, Spanish by default).
 */
import { z } from "zod";
import { defaultLocale, type Locale } from "../../i18n/locales.ts";
import { serverMessagesFor } from "../../i18n/server-messages.ts";
import { localeFromAcceptLanguage } from "../locale.ts";

export type ApiErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 415 | 422 | 429 | 500 | 503;

export function apiMessage(status: ApiErrorStatus, locale: Locale): string {
  return serverMessagesFor(locale).api[status];
}

export function requestLocale(request: Request): Locale {
  return localeFromAcceptLanguage(request.headers.get("accept-language")) ?? defaultLocale;
}

export interface ApiErrorOptions {
  fieldErrors?: Record<string, string[]>;
  retryAfterSeconds?: number;
  /** Replaces the standard message (already in the request's language). */
  message?: string;
}

/** Thrown by handlers for an expected failure; the helper turns it into the JSON answer. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: ApiErrorStatus;
  readonly options: ApiErrorOptions;
  constructor(status: ApiErrorStatus, options: ApiErrorOptions = {}) {
    super(options.message ?? `API error ${status}`);
    this.status = status;
    this.options = options;
  }
}

/** Headers every /api answer carries. */
export const apiHeaders = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
} as const;

export function errorResponse(error: ApiError, locale: Locale): Response {
  const body: Record<string, unknown> = {
    statusCode: error.status,
    statusMessage: error.options.message ?? apiMessage(error.status, locale),
  };
  if (error.options.fieldErrors) body.fieldErrors = error.options.fieldErrors;
  const headers: Record<string, string> = { ...apiHeaders, "content-language": locale };
  if (error.options.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.options.retryAfterSeconds);
  return Response.json(body, { status: error.status, headers });
}

/** The error body's schema, shared by the OpenAPI document. */
export const apiErrorSchema = z
  .object({
    statusCode: z.int().min(400).max(599),
    statusMessage: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ description: "Every error: the HTTP status and a message in the request's language." });
