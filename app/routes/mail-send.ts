import { handleContactPost, methodNotAllowed } from "../.server/contact/submission";
import { requestContext, servicesContext } from "../.server/context";
import type { Route } from "./+types/mail-send";

/** GET and HEAD: the endpoint only takes POST. */
export function loader({ request }: Route.LoaderArgs) {
  return methodNotAllowed(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return handleContactPost(request, context.get(servicesContext), context.get(requestContext));
}
