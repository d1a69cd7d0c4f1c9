import { redirect } from "react-router";
import { requestMeta, safeNext, withCookies } from "../../.server/auth/guard";
import { AuthError } from "../../.server/auth/service";
import { servicesContext } from "../../.server/context";
import type { Route } from "./+types/sso-saml-acs";

/** The SAML ACS (HTTP-POST binding): the IdP's page posts SAMLResponse here from its own origin. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { auth } = context.get(servicesContext);
  const form = await request.formData();
  const encoded = form.get("SAMLResponse");
  if (typeof encoded !== "string" || encoded === "") return redirect("/app/sso?error=sso_refused");
  try {
    const outcome = await auth.finishSaml(params.providerId, encoded, requestMeta(request, context));
    if (outcome.kind === "tested") return redirect(`/app/admin/sso?tested=${encodeURIComponent(outcome.providerId)}`);
    if (outcome.kind === "link_pending") return redirect(`/app/sso/link/${encodeURIComponent(outcome.token)}`);
    return redirect(outcome.mfaVerified ? safeNext(outcome.next) : "/app/mfa", {
      status: 303,
      headers: withCookies(outcome.setCookies),
    });
  } catch (error) {
    if (error instanceof AuthError) return redirect(`/app/sso?error=${error.code}`, 303);
    throw error;
  }
}

export function loader() {
  return redirect("/app/sso");
}
