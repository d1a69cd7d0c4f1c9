import { redirect } from "react-router";
import { requestMeta, safeNext, withCookies } from "../../.server/auth/guard";
import { AuthError } from "../../.server/auth/service";
import { servicesContext } from "../../.server/context";
import type { Route } from "./+types/sso-callback";

/** The OIDC callback: the IdP's answer checked, then a session, a test result or a link to confirm. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth } = context.get(servicesContext);
  try {
    const outcome = await auth.finishOidc(new URL(request.url), requestMeta(request, context));
    if (outcome.kind === "tested") return redirect(`/app/admin/sso?tested=${encodeURIComponent(outcome.providerId)}`);
    if (outcome.kind === "link_pending") return redirect(`/app/sso/link/${encodeURIComponent(outcome.token)}`);
    return redirect(outcome.mfaVerified ? safeNext(outcome.next) : "/app/mfa", {
      headers: withCookies(outcome.setCookies),
    });
  } catch (error) {
    if (error instanceof AuthError) return redirect(`/app/sso?error=${error.code}`);
    throw error;
  }
}
