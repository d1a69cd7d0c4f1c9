import { requestMeta } from "../.server/auth/guard";
import { servicesContext } from "../.server/context";
import { scimRespond } from "../.server/scim/http";
import type { Route } from "./+types/scim";

/** SCIM 2.0 (/scim/v2/Users, /scim/v2/Groups, …): provisioning by the organisation's IdP, bearer token. */
function respond({ request, params, context }: Route.LoaderArgs | Route.ActionArgs) {
  return scimRespond(
    context.get(servicesContext).auth,
    request,
    requestMeta(request, context),
    params.resource,
    params.id,
  );
}

export const loader = respond;
export const action = respond;
