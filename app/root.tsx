import type { ReactNode } from "react";
import {
  isRouteErrorResponse,
  Links,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import { servicesContext } from "./.server/context";
import type { Route } from "./+types/root";
import { ErrorPage } from "./components/error/error-page";
import { DefaultLayout } from "./components/layout/default-layout";
import { layouts } from "./components/layout/layouts";
import { langFromMatches, layoutFromMatches } from "./lib/route-handle";
import "./styles/app.scss";

/** Public settings the browser may see: an explicit whitelist. */
export function loader({ context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  return { siteUrl: config.siteUrl, platformUrl: config.platformUrl ?? null };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: ReactNode }) {
  const lang = langFromMatches(useMatches());
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const PageLayout = layouts[layoutFromMatches(useMatches())];
  return (
    <PageLayout>
      <Outlet />
    </PageLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const lang = langFromMatches(useMatches());
  let status = 500;
  let message: string | undefined;
  let detail: string | undefined;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    message = error.statusText || undefined;
    detail = typeof error.data === "string" ? error.data : undefined;
  }
  return (
    <DefaultLayout error>
      <ErrorPage lang={lang} status={status} message={message} detail={detail} />
    </DefaultLayout>
  );
}
