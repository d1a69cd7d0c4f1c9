import { servicesContext } from "../.server/context";
import { sitemapXml } from "../.server/sitemap";
import type { Route } from "./+types/sitemap";

export function loader({ request, context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  const locale = new URL(request.url).pathname.startsWith("/en/") ? "en" : "es";
  return new Response(sitemapXml(config.siteUrl, locale), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
