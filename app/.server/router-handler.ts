/**
 * React Router's request handler for the app. Given a function, React Router loads the build and
 * derives its routes again on every request (flattening, ranking and compiling every route's
 * pattern): right for development, where the function returns what Vite serves now, and a waste
 * of about an eighth of a request's time in production. The compiled build is given as itself, so
 * that work is done once.
 */
import { createRequestHandler, type ServerBuild } from "react-router";

export function routerRequestHandler(
  compiled: ServerBuild,
  development: (() => Promise<ServerBuild>) | undefined,
  mode: string,
) {
  return createRequestHandler(development ?? compiled, mode);
}
