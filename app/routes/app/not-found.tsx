import { data } from "react-router";
import type { Route } from "./+types/not-found";

export const handle = { layout: "bare" };

export function loader({ request }: Route.LoaderArgs) {
  throw data(`Not found: ${new URL(request.url).pathname}`, { status: 404 });
}

export default function AppNotFound() {
  return null;
}
