/** AuthError → the form's answer: a message key and a status (429 with Retry-After for limits). */
import { data } from "react-router";
import { AuthError, type AuthErrorCode } from "./service.ts";

export interface FormFailure {
  formError?: AuthErrorCode | "generic";
  errors?: Record<string, string[]>;
}

export function authFailure(error: unknown, log?: { error(obj: unknown, msg?: string): void }) {
  if (error instanceof AuthError) {
    const limited = error.code === "locked" || error.code === "rate_limited";
    const status = limited ? 429 : error.code === "invalid_credentials" || error.code.startsWith("invalid") ? 401 : 422;
    const headers: Record<string, string> = {};
    if (limited && error.retryAfterSeconds) headers["Retry-After"] = String(error.retryAfterSeconds);
    return data<FormFailure>({ formError: error.code }, { status, headers });
  }
  // Redirects and 403/404 answers thrown by the guard pass through.
  if (
    error instanceof Response ||
    (error && typeof error === "object" && "type" in error && error.type === "DataWithResponseInit")
  ) {
    throw error;
  }
  log?.error({ err: error }, "platform form failed");
  return data<FormFailure>({ formError: "generic" }, { status: 500 });
}

export function invalidForm(errors: Record<string, string[]>) {
  return data<FormFailure>({ errors }, { status: 422 });
}

/**
 * A route's `headers`: no-store, and the action's Retry-After on a refused attempt (429), which
 * React Router drops unless the route passes it on.
 */
export function limitedFormHeaders(actionHeaders: Headers): Record<string, string> {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Cache-Control": "no-store", "Retry-After": retryAfter } : { "Cache-Control": "no-store" };
}
