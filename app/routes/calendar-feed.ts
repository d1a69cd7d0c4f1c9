import { serveCalendarFeed } from "../.server/calendar/serve";
import { requestContext, servicesContext } from "../.server/context";
import type { Route } from "./+types/calendar-feed";

/** A calendar feed (ICS) behind its secret URL; outside /app: calendar clients have no session. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { api } = context.get(servicesContext);
  return serveCalendarFeed(api.database, params.file, {
    clientIp: context.get(requestContext).clientIp,
    siteUrl: api.siteUrl,
  });
}
