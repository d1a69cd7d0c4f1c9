import { data, redirect } from "react-router";
import { pageCacheControl } from "../.server/cache-control";
import { loadContactFormState } from "../.server/contact/form-state";
import { requestContext, servicesContext } from "../.server/context";
import { loadHomeContent } from "../.server/home-content";
import { localeCookie, negotiateLocale } from "../.server/locale";
import { ArchitectureSection } from "../components/sections/architecture-section";
import { CollaborationSection } from "../components/sections/collaboration-section";
import { ContactSection } from "../components/sections/contact-section";
import { IntroSection } from "../components/sections/intro-section";
import { UseCasesSection } from "../components/sections/use-cases-section";
import { messagesFor } from "../i18n";
import { isLocale, type Locale } from "../i18n/locales";
import type { RouteHandle } from "../lib/route-handle";
import { pagePath, resolveLang } from "../lib/site";
import type { Route } from "./+types/home";

/**
 * Server-rendered whole, readable and usable without JavaScript: its modules are fetched and run
 * only on the visitor's first interaction (decision 0116).
 */
export const handle: RouteHandle = { hydrateOnInteraction: true };

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const info = context.get(requestContext);
  const { secure } = info;
  if (params.lang === undefined) {
    // An explicit choice from the language switch overrides the cookie.
    const chosen = url.searchParams.get("locale");
    if (isLocale(chosen)) {
      throw redirect(pagePath("home", chosen), {
        status: 302,
        headers: { "Set-Cookie": localeCookie(chosen, secure) },
      });
    }
    const detected = negotiateLocale({
      cookie: request.headers.get("cookie"),
      acceptLanguage: request.headers.get("accept-language"),
    });
    // Keep the query: a no-JavaScript form outcome (?contact=…) must survive the hop.
    if (detected !== "es") throw redirect(`${pagePath("home", detected)}${url.search}`, 302);
  } else if (params.lang === "es") {
    throw redirect(`/${url.search}`, 308);
  } else if (params.lang !== "en") {
    throw data(`Page not found: ${url.pathname}`, { status: 404 });
  }
  const lang: Locale = resolveLang(params.lang);
  const [content, contactForm] = await Promise.all([
    loadHomeContent(lang, context.get(servicesContext).config.siteUrl),
    loadContactFormState(request, context.get(servicesContext), info),
  ]);
  // The same page for every visitor of this language (the cookie it sets included).
  const headers = new Headers({ "Set-Cookie": localeCookie(lang, secure), "Cache-Control": pageCacheControl(request) });
  // "/" answers by the visitor's cookie and languages; caches must know.
  if (params.lang === undefined) headers.set("Vary", "Cookie, Accept-Language");
  const { home, contact } = messagesFor(lang);
  return data({ lang, content, contactForm, messages: { home, contact } }, { headers });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { lang, content, contactForm } = loaderData;
  return (
    <>
      <IntroSection />
      <CollaborationSection />
      <ArchitectureSection content={content} />
      <UseCasesSection />
      <ContactSection lang={lang} form={contactForm} />
    </>
  );
}
