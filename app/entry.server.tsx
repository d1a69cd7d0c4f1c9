import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { requestContext, servicesContext } from "./.server/context";
import { contentSecurityPolicy } from "./.server/csp";
import { hydrateOnInteraction } from "./.server/hydrate-on-interaction";
import { NonceContext } from "./lib/nonce";
import type { RouteHandle } from "./lib/route-handle";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const userAgent = request.headers.get("user-agent");
  if (responseStatusCode >= 400 && userAgent && isbot(userAgent)) {
    // Crawlers (and plain HTTP clients, which isbot counts as such) get no error page: log it
    // and answer with the status alone, keeping the route's headers (a 429's Retry-After,
    // Cache-Control, cookies).
    loadContext
      .get(requestContext)
      .log.warn({ status: responseStatusCode, userAgent }, "error page not rendered for a crawler");
    responseHeaders.set("Content-Type", "text/plain; charset=utf-8");
    return new Response(`${responseStatusCode}\n`, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce } = loadContext.get(requestContext);
  const { config } = loadContext.get(servicesContext);
  responseHeaders.set(
    "Content-Security-Policy",
    contentSecurityPolicy(nonce, { https: config.siteUrl.startsWith("https:"), dev: config.env === "development" }),
  );

  // Pages that ask for it load their modules on the visitor's first interaction
  // (app/.server/hydrate-on-interaction.ts); their error views (a 404, a 405) hydrate as any page does.
  const deepest = routerContext.staticHandlerContext.matches.at(-1);
  const onInteraction =
    responseStatusCode < 400 &&
    deepest !== undefined &&
    (routerContext.routeModules[deepest.route.id]?.handle as RouteHandle | undefined)?.hydrateOnInteraction === true;

  // No HEAD branch: the server turns a HEAD into a GET and sends the headers alone, so a
  // HEAD can never leave an empty page where a GET will find it (server/site-server.ts).

  // The server buffers every page (ETag, compression, the page cache), so render it
  // whole rather than streaming the shell first.
  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const app = (
      <NonceContext value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      onAllReady() {
        const body = new PassThrough({
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            callback();
          },
        });
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        pipe(body);
        const response = new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        });
        // The server buffers the page anyway: rewriting it whole costs one copy.
        resolve(
          onInteraction
            ? response
                .text()
                .then(
                  (html) =>
                    new Response(hydrateOnInteraction(html), { headers: responseHeaders, status: responseStatusCode }),
                )
            : response,
        );
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        loadContext.get(requestContext).log.error({ err: error }, "render error");
      },
    });
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const log = context.get(requestContext).log;
  if (isRouteErrorResponse(error) && error.status < 500) {
    log.info({ status: error.status, method: request.method, url: request.url }, "request refused");
    return;
  }
  log.error({ err: error, method: request.method, url: request.url }, "unhandled error");
};
