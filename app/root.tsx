import { type ReactNode, useEffect } from "react";
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
import { breakpointScript } from "./lib/breakpoints";
import { colorModeScript } from "./lib/color-mode";
import { useNonce } from "./lib/nonce";
import { hydratedEvent, langFromMatches, layoutFromMatches } from "./lib/route-handle";
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
  const nonce = useNonce();
  // Hydrated: the last of the first effects. A page that hydrates on interaction hands what its
  // loader did before over to React then (app/.server/hydrate-on-interaction.ts); tests wait for it.
  useEffect(() => {
    document.documentElement.setAttribute("data-hydrated", "");
    document.dispatchEvent(new Event(hydratedEvent));
  }, []);
  return (
    // The inline scripts add attributes and classes before React hydrates: not mismatches to report.
    <html lang={lang} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Before any stylesheet: the colour mode is set before first paint. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script from app/lib/color-mode.ts, allowed by the CSP nonce */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: colorModeScript }} />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#0b3d5c" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="icon" href="/favicon-32.png" type="image/png" sizes="32x32" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <Links />
      </head>
      <body suppressHydrationWarning>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script from app/lib/breakpoints.ts, allowed by the CSP nonce */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: breakpointScript }} />
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
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
