import { data, redirect } from "react-router";
import { servicesContext } from "../.server/context";
import type { Route } from "./+types/login";

// Placeholder: the login information page belongs to the home page issue.
export function loader({ params, request, context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  if (params.lang === "es") throw redirect("/login", 308);
  if (params.lang !== undefined && params.lang !== "en") {
    throw data(`Page not found: ${new URL(request.url).pathname}`, { status: 404 });
  }
  if (config.platformUrl) throw redirect(config.platformUrl, 302);
  return { lang: params.lang === "en" ? ("en" as const) : ("es" as const) };
}

export default function Login({ loaderData }: Route.ComponentProps) {
  return (
    <div className="container py-5">
      <h1>{loaderData.lang === "en" ? "Log in" : "Acceder"}</h1>
    </div>
  );
}
