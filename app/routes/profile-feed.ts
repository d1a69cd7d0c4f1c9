import { requestContext, servicesContext } from "../.server/context";
import { serveProfileFeed } from "../.server/feeds/serve";
import type { Route } from "./+types/profile-feed";

/** An alert profile's Atom feed behind its secret URL; outside /app: feed readers have no session. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { api } = context.get(servicesContext);
  return serveProfileFeed(api.database, params.file, {
    clientIp: context.get(requestContext).clientIp,
    siteUrl: api.siteUrl,
  });
}
