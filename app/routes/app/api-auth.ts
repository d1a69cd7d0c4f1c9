import { servicesContext } from "../../.server/context";
import type { Route } from "./+types/api-auth";

/** better-auth's own endpoints (passkey ceremonies, session JSON) under /app/api/auth/*. */
export function loader({ request, context }: Route.LoaderArgs) {
  return context.get(servicesContext).auth.auth.handler(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return context.get(servicesContext).auth.auth.handler(request);
}
