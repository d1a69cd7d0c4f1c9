/**
 * The /app route group's middleware and the one permission check loaders and actions use.
 * `appMiddleware` (every /app route): the session (if any), the user's language, and no-store on
 * every answer. `memberMiddleware` (every page behind sign-in): a session, a verified second
 * factor in it, an active membership; otherwise a redirect to sign-in or to MFA enrolment.
 * `requireMember(context, action, object?)`: the member, or 403.
 */
import { createContext, data, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import type { Locale } from "../../i18n/locales.ts";
import { requestContext, servicesContext } from "../context.ts";
import { negotiateLocale } from "../locale.ts";
import { type Action, can, type MemberInfo, type OrgObject } from "./permissions.ts";
import type { RequestMeta, SessionInfo } from "./service.ts";

export const appSessionContext = createContext<SessionInfo | null>(null);
export const appMemberContext = createContext<MemberInfo | null>(null);
export const appLocaleContext = createContext<Locale>("es");

/** Never cached: private pages, session cookies. */
export const appCacheControl = "no-store";

export const appMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { auth } = context.get(servicesContext);
  const current = await auth.currentSession(request.headers);
  context.set(appSessionContext, current);
  const locale =
    current?.locale ??
    negotiateLocale({ cookie: request.headers.get("cookie"), acceptLanguage: request.headers.get("accept-language") });
  context.set(appLocaleContext, locale);
  if (current?.mfaVerified) context.set(appMemberContext, await auth.memberOf(current));
  const response = await next();
  try {
    response.headers.set("Cache-Control", appCacheControl);
    response.headers.set("Vary", "Cookie");
  } catch {
    // An immutable response (none expected): the server adds no-store for /app anyway.
  }
  return response;
};

export const memberMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const current = context.get(appSessionContext);
  const url = new URL(request.url);
  if (!current) {
    const target = url.pathname === "/app" ? "" : `?next=${encodeURIComponent(url.pathname + url.search)}`;
    throw redirect(`/app/login${target}`);
  }
  if (!current.mfaVerified) throw redirect("/app/mfa");
  const member = context.get(appMemberContext);
  if (!member) throw redirect("/app/login?ended=1");
  return next();
};

type Context = Readonly<RouterContextProvider>;

/** The signed-in member if they may do `action` (on `object`); 403 otherwise (404 for others' objects). */
export function requireMember(context: Context, action: Action, object?: OrgObject): MemberInfo {
  const member = context.get(appMemberContext);
  if (!member) throw redirect("/app/login");
  if (object && object.organizationId !== member.organizationId) throw data("Not found", { status: 404 });
  if (!can(member, action, object)) throw data("Forbidden", { status: 403 });
  return member;
}

export function appLocale(context: Context): Locale {
  return context.get(appLocaleContext);
}

export function requestMeta(request: Request, context: Context): RequestMeta {
  const info = context.get(requestContext);
  return { headers: request.headers, ip: info.clientIp, userAgent: request.headers.get("user-agent") ?? "" };
}

/** Answers of a form action with cookies to set. */
export function withCookies(setCookies: readonly string[], init: Headers = new Headers()): Headers {
  for (const line of setCookies) init.append("set-cookie", line);
  return init;
}

/** A safe same-origin path to go to after sign-in. */
export function safeNext(value: string | null | undefined): string {
  if (!value?.startsWith("/app") || value.startsWith("//")) return "/app";
  return value;
}
