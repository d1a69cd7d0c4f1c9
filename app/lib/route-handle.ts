import type { UIMatch } from "react-router";
import type { Locale } from "../i18n/locales.ts";
import { type PageId, pageAt, resolveLang } from "./site.ts";

/** Layouts a route can ask for by name in its handle; "default" when it names none. */
export type LayoutName = "default" | "bare";

export interface RouteHandle {
  layout?: LayoutName;
  /** The page's language is its loader's `locale` (the platform: the signed-in user's preference). */
  langFromData?: boolean;
  /**
   * Load and run the page's JavaScript only on the visitor's first interaction
   * (app/.server/hydrate-on-interaction.ts): for pages whose server render is usable without it.
   */
  hydrateOnInteraction?: boolean;
}

/** Dispatched on document once React has hydrated the page (app/root.tsx). */
export const hydratedEvent = "app:hydrated";

function handleOf(match: UIMatch | undefined): RouteHandle {
  return (match?.handle ?? {}) as RouteHandle;
}

/**
 * The page's language: a route's loader `locale` where its handle asks for that (/app), else the route's `lang` parameter; for pages whose path has
 * none, the locale the site structure gives that path (an unknown path under
 * /en/ is still an English visitor's); else the default locale.
 */
export function langFromMatches(matches: UIMatch[]): Locale {
  for (const match of matches) {
    if (!handleOf(match).langFromData) continue;
    const locale = (match.loaderData as { locale?: unknown } | undefined)?.locale;
    if (locale === "es" || locale === "en") return locale;
  }
  const deepest = matches.at(-1);
  const pathname = deepest?.pathname ?? "/";
  const fromPath = pageAt(pathname)?.locale ?? (pathname === "/en" || pathname.startsWith("/en/") ? "en" : undefined);
  return resolveLang(deepest?.params.lang, fromPath);
}

/** The site page being shown, if the path is one of the site's pages. */
export function pageFromMatches(matches: UIMatch[]): PageId | undefined {
  return pageAt(matches.at(-1)?.pathname ?? "")?.page;
}

export function layoutFromMatches(matches: UIMatch[]): LayoutName {
  return handleOf(matches.at(-1)).layout ?? "default";
}
