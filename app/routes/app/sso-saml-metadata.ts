import { data } from "react-router";
import { servicesContext } from "../../.server/context";
import type { Route } from "./+types/sso-saml-metadata";

/** The SP metadata for one SAML provider (its entity ID is this URL): what the IdP's admin imports. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const xml = await context.get(servicesContext).auth.samlMetadata(params.providerId);
  if (!xml) throw data("Not found", { status: 404 });
  return new Response(xml, { headers: { "Content-Type": "application/samlmetadata+xml; charset=utf-8" } });
}
