import { data, redirect } from "react-router";
import { requestContext, servicesContext } from "../.server/context";
import { localeCookie } from "../.server/locale";
import type { Route } from "./+types/login";

/**
 * The site's "log in": the platform's sign-in at /app/login (or PLATFORM_URL when set).
 * /en/login also stores the English locale so the platform answers in English.
 */
export function loader({ params, request, context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  if (params.lang === "es") throw redirect("/login", 308);
  if (params.lang !== undefined && params.lang !== "en") {
    throw data(`Page not found: ${new URL(request.url).pathname}`, { status: 404 });
  }
  if (config.platformUrl) throw redirect(config.platformUrl, 302);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (params.lang === "en") headers.set("Set-Cookie", localeCookie("en", context.get(requestContext).secure));
  throw redirect("/app/login", { status: 302, headers });
}

export default function Login() {
  return null;
}
