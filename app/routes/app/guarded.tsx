import { Outlet } from "react-router";
import { memberMiddleware } from "../../.server/auth/guard";
import type { Route } from "./+types/guarded";

/** Pages behind sign-in: a session with a verified second factor and an active membership. */
export const middleware: Route.MiddlewareFunction[] = [memberMiddleware];
export const handle = { layout: "bare" };

export default function Guarded() {
  return <Outlet />;
}
