import { data } from "react-router";
import { pageCacheControl } from "../.server/cache-control";
import { LegalDocument } from "../components/legal/legal-document";
import { pageAt } from "../lib/site";
import type { Route } from "./+types/legal";

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function loader({ request }: Route.LoaderArgs) {
  const pathname = new URL(request.url).pathname;
  const found = pageAt(pathname);
  if (!found || (found.page !== "legalNotice" && found.page !== "privacy")) {
    throw data(`Page not found: ${pathname}`, { status: 404 });
  }
  return data({ page: found.page, lang: found.locale }, { headers: { "Cache-Control": pageCacheControl(request) } });
}

export default function Legal({ loaderData }: Route.ComponentProps) {
  return <LegalDocument page={loaderData.page} lang={loaderData.lang} />;
}
