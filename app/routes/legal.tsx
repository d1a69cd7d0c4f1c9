import { data } from "react-router";
import { pageAt } from "../lib/site";
import type { Route } from "./+types/legal";

// Placeholder: the legal pages' content belongs to the home page issue.
export function loader({ request }: Route.LoaderArgs) {
  const pathname = new URL(request.url).pathname;
  const found = pageAt(pathname);
  if (!found) throw data(`Page not found: ${pathname}`, { status: 404 });
  return { page: found.page, lang: found.locale };
}

export default function Legal({ loaderData }: Route.ComponentProps) {
  return (
    <div className="container py-5">
      <h1>{loaderData.page}</h1>
    </div>
  );
}
