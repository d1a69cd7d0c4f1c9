/**
 * Calls the platform's route modules (loaders and actions) in-process with the router context
 * the server builds: a real database, a signed-in member, the language. No HTTP, no session
 * cookie: the member stands for what appMiddleware and memberMiddleware would have set.
 */
import { RouterContextProvider } from "react-router";
import type { ApiServices } from "../../app/.server/api/service.ts";
import { appLocaleContext, appMemberContext } from "../../app/.server/auth/guard.ts";
import type { MemberInfo } from "../../app/.server/auth/permissions.ts";
import { type AppServices, requestContext, servicesContext } from "../../app/.server/context.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createLogger } from "../../app/.server/logger.ts";

export function memberInfo(overrides: Partial<MemberInfo> = {}): MemberInfo {
  return {
    userId: "user-ana",
    email: "ana@org-a.example",
    name: "Ana",
    organizationId: "org-a",
    organizationName: "Org A",
    memberId: "member-ana",
    role: "member",
    locale: "es",
    ...overrides,
  };
}

export function pageContext(
  database: Database,
  member: MemberInfo | null,
  services: Partial<AppServices> = {},
): RouterContextProvider {
  const context = new RouterContextProvider();
  const api = { database, maxFollowsPerOrganization: 200, ingesting: true } as ApiServices;
  context.set(servicesContext, { api, log: createLogger("silent"), ...services } as unknown as AppServices);
  context.set(requestContext, {
    requestId: "test",
    nonce: "test-nonce",
    clientIp: "198.51.100.7",
    secure: false,
    log: createLogger("silent"),
  });
  context.set(appMemberContext, member);
  context.set(appLocaleContext, member?.locale ?? "es");
  return context;
}

type Args = { request: Request; params: Record<string, string>; context: RouterContextProvider };

/** A GET to a page's loader (or a form POST to its action, with `form`). */
export function pageRequest(
  path: string,
  context: RouterContextProvider,
  params: Record<string, string> = {},
  form?: Record<string, string>,
): Args {
  const url = new URL(path, "http://127.0.0.1:3000");
  const request = form
    ? new Request(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "vitest" },
        body: new URLSearchParams(form).toString(),
      })
    : new Request(url, { headers: { "user-agent": "vitest" } });
  return { request, params, context };
}

/** Runs a loader or action and returns its data, or the Response / data() it threw. */
export async function settle<T>(run: () => Promise<T> | T): Promise<{ data?: T; thrown?: unknown }> {
  try {
    return { data: await run() };
  } catch (thrown) {
    return { thrown };
  }
}
