/** Server-side content of the home page that is prepared once per locale (e.g. highlighted code). */
import type { Locale } from "../i18n/locales.ts";

export interface HomeContent {
  lang: Locale;
}

export async function loadHomeContent(lang: Locale): Promise<HomeContent> {
  return { lang };
}
