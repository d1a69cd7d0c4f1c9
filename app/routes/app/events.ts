import { appLocale, appMemberContext } from "../../.server/auth/guard";
import { can } from "../../.server/auth/permissions";
import { servicesContext } from "../../.server/context";
import type { Route } from "./+types/events";

/**
 * GET /app/events: the signed-in member's alerts as Server-Sent Events (`event: alert`, `id`, JSON
 * `data` {alertId, documentId, title, profileId, profileName, why} (why: the Alerts page's sentence in
 * the member's language), a heartbeat comment every 15 s, replay after
 * Last-Event-ID). Never cached; 401 without a verified session, which makes EventSource stop.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = context.get(appMemberContext);
  if (!member || !can(member, "alerts.use")) {
    return new Response("Unauthorized", { status: 401, headers: { "cache-control": "no-store" } });
  }
  return context.get(servicesContext).alerts.events(member.userId, request, appLocale(context));
}
