import { redirect } from "react-router";
import { appSessionContext, requestMeta, withCookies } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import type { Route } from "./+types/logout";

export async function action({ request, context }: Route.ActionArgs) {
  const cookies = await context
    .get(servicesContext)
    .auth.signOut(context.get(appSessionContext), requestMeta(request, context));
  return redirect("/app/login?signedout=1", { headers: withCookies(cookies) });
}

export function loader() {
  return redirect("/app");
}
