import { servicesContext } from "../.server/context";
import { robotsTxt } from "../.server/sitemap";
import type { Route } from "./+types/robots";

export function loader({ context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  return new Response(robotsTxt(config.siteUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
