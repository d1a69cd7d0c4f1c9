/**
 * The app as the Node process sees it, compiled with the routes (the server build's
 * entry, see vite.config.ts): configuration, services, and a Fetch handler that
 * builds the router context. The process (server/) only listens, serves static
 * files, caches what routes allow, and shuts down; it imports nothing else of the app.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import * as productionBuild from "virtual:react-router/server-build";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { localeCookieName } from "../i18n/locales.ts";
import type { Config } from "./config.ts";
import { requestContext, servicesContext } from "./context.ts";
import type { Logger } from "./logger.ts";
import { routerRequestHandler } from "./router-handler.ts";
import { createServices, type Services } from "./services.ts";

export { ConfigError, describeConfig, loadConfig } from "./config.ts";
export { createLogger, logDestination } from "./logger.ts";

export interface AppOptions {
  /** The project's root: its drizzle/ folder holds the migrations. */
  rootDir: string;
  /** Development: the routes as Vite serves them now (hot reload). Production: the compiled build. */
  build?: () => Promise<ServerBuild>;
  /** Keep PGlite in memory instead of DATA_DIR/db (tests). */
  inMemory?: boolean;
  /** The recorded sample's folder (default: the fixtures); tests of the loading flow use a smaller one. */
  sampleRoot?: string;
}

/** Who sent the request, as the process saw the socket (and trusted proxies). */
export interface ClientInfo {
  requestId: string;
  address: string;
  secure: boolean;
  log: Logger;
}

export interface App extends Services {
  config: Config;
  /** Answers one request through React Router with a fresh router context and CSP nonce. */
  handle(request: Request, client: ClientInfo): Promise<Response>;
  /**
   * Cookies that carry nothing personal (the language choice): a request with any
   * other cookie, or an Authorization header, is never answered from a shared cache.
   */
  publicCookies: readonly string[];
}

export async function createApp(config: Config, log: Logger, options: AppOptions): Promise<App> {
  const services = await createServices(config, log, {
    migrationsDir: path.join(options.rootDir, "drizzle"),
    ...(options.inMemory ? { inMemory: true } : {}),
    ...(options.sampleRoot ? { sampleRoot: options.sampleRoot } : {}),
  });
  const handler = routerRequestHandler(productionBuild as unknown as ServerBuild, options.build, config.env);
  return {
    ...services,
    config,
    publicCookies: [localeCookieName],
    handle(request, client) {
      const context = new RouterContextProvider();
      context.set(servicesContext, services.services);
      context.set(requestContext, {
        requestId: client.requestId,
        clientIp: client.address,
        secure: client.secure,
        log: client.log,
        nonce: randomBytes(16).toString("base64"),
      });
      return handler(request, context);
    },
  };
}
