import { isRouteErrorResponse, Outlet, useRouteError, useRouteLoaderData } from "react-router";
import { alertSummary } from "../../.server/alerts/inbox";
import { appLocale, appMemberContext, appMiddleware } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { AppShell } from "../../components/app/app-shell";
import { appMessages } from "../../components/app/messages";
import platformStyles from "../../components/app/platform.scss?url";
import type { Route } from "./+types/layout";

/** Every /app page: the session, the language and no-store (../../.server/auth/guard.ts). */
export const middleware: Route.MiddlewareFunction[] = [appMiddleware];
export const handle = { layout: "bare", langFromData: true };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: platformStyles }];

export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader({ context }: Route.LoaderArgs) {
  const member = context.get(appMemberContext);
  return {
    locale: appLocale(context),
    user: member
      ? { name: member.name, email: member.email, role: member.role, organizationName: member.organizationName }
      : null,
    // The notification centre on every page (fed live by /app/events afterwards).
    alerts: member
      ? await alertSummary(context.get(servicesContext).alerts.database.db, member.userId, appLocale(context))
      : null,
  };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell locale={loaderData.locale} user={loaderData.user} alerts={loaderData.alerts}>
      <Outlet />
    </AppShell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("app-layout");
  const locale = data?.locale ?? "es";
  const t = appMessages(locale);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = status === 403 ? t.forbidden : status === 404 ? t.errors.not_found : t.errors.generic;
  return (
    <AppShell locale={locale} user={data?.user ?? null}>
      <h1 className="h3">{status}</h1>
      <p>{message}</p>
      <a href="/app">{t.nav.home}</a>
    </AppShell>
  );
}
