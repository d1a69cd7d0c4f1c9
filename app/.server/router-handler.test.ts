import { RouterContextProvider, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { routerRequestHandler } from "./router-handler.ts";

/** A build whose routes count how often React Router reads them (it reads them to derive its router). */
function countingBuild(): { build: ServerBuild; reads: () => number } {
  let reads = 0;
  const routes = {
    root: { id: "root", path: "", module: { default: () => null } },
  };
  const build = {
    entry: { module: { default: () => new Response("page") } },
    basename: "/",
    future: {},
    assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "1" },
    publicPath: "/",
    assetsBuildDirectory: "",
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial" },
    get routes() {
      reads++;
      return routes;
    },
  } as unknown as ServerBuild;
  return { build, reads: () => reads };
}

async function ask(handler: ReturnType<typeof routerRequestHandler>) {
  // The fake build is enough to derive the router; what it answers does not matter here.
  await handler(new Request("http://localhost/"), new RouterContextProvider()).catch(() => undefined);
}

/** How often a request after the first reads the build's routes. */
async function readsPerLaterRequest(development: boolean): Promise<number> {
  const { build, reads } = countingBuild();
  const handler = routerRequestHandler(
    build,
    development ? () => Promise.resolve(build) : undefined,
    development ? "development" : "production",
  );
  await ask(handler);
  const afterFirst = reads();
  expect(afterFirst).toBeGreaterThan(0);
  await ask(handler);
  await ask(handler);
  return (reads() - afterFirst) / 2;
}

describe("the app's React Router handler", () => {
  it("derives the compiled build's routes once, where development's are derived on every request", async () => {
    // Answering a request reads the routes too; deriving them again reads them once more.
    const compiled = await readsPerLaterRequest(false);
    const development = await readsPerLaterRequest(true);
    expect(compiled).toBeLessThan(development);
  });
});
