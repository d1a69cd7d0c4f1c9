import type { UIMatch } from "react-router";
import type { Locale } from "../i18n/locales.ts";
import type { PageId } from "./site.ts";
import { resolveLang } from "./site.ts";

/** Layouts a route can ask for by name in its handle; "default" when it names none. */
export type LayoutName = "default" | "bare";

export interface RouteHandle {
  layout?: LayoutName;
  /** The language of a route whose path has no `lang` segment. */
  lang?: Locale;
  page?: PageId;
}

function handleOf(match: UIMatch | undefined): RouteHandle {
  return (match?.handle ?? {}) as RouteHandle;
}

export function langFromMatches(matches: UIMatch[]): Locale {
  const deepest = matches.at(-1);
  // An unknown path under /en/ is still an English visitor's page.
  const fromPath = deepest?.pathname === "/en" || deepest?.pathname.startsWith("/en/") ? "en" : undefined;
  return resolveLang(deepest?.params.lang, handleOf(deepest).lang ?? fromPath);
}

export function pageFromMatches(matches: UIMatch[]): PageId | undefined {
  return handleOf(matches.at(-1)).page;
}

export function layoutFromMatches(matches: UIMatch[]): LayoutName {
  return handleOf(matches.at(-1)).layout ?? "default";
}
