import { redirect } from "react-router";
import { appSessionContext } from "../../.server/auth/guard";
import { requestContext, servicesContext } from "../../.server/context";
import { localeCookie } from "../../.server/locale";
import { isLocale } from "../../i18n/locales";
import type { Route } from "./+types/locale";

/** The language switch: the user's preference (when signed in) and the locale cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const locale = form.get("locale");
  const back = new URL(request.headers.get("referer") ?? "/app", request.url);
  const target =
    back.origin === new URL(request.url).origin && back.pathname.startsWith("/app")
      ? back.pathname + back.search
      : "/app";
  if (!isLocale(locale)) return redirect(target);
  const current = context.get(appSessionContext);
  if (current) await context.get(servicesContext).auth.setLocale(current.userId, locale);
  return redirect(target, { headers: { "Set-Cookie": localeCookie(locale, context.get(requestContext).secure) } });
}

export function loader() {
  return redirect("/app");
}
