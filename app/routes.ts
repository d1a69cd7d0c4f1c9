import { type RouteConfig, route } from "@react-router/dev/routes";

// Every route in one list. Pages whose path has no `lang` segment name their
// language in their handle; root.tsx falls back to the default locale.
export default [
  route(":lang?", "routes/home.tsx", { id: "home" }),
  route("sitemap.xml", "routes/sitemap.ts", { id: "sitemap-es" }),
  route("en/sitemap.xml", "routes/sitemap.ts", { id: "sitemap-en" }),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
