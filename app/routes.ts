import { prefix, type RouteConfig, route } from "@react-router/dev/routes";

// Every route in one list. Pages whose path has no `lang` segment name their
// language in their handle; root.tsx falls back to the default locale.
export default [
  route(":lang?", "routes/home.tsx", { id: "home" }),
  route(":lang?/login", "routes/login.tsx", { id: "login" }),
  route("privacidad", "routes/legal.tsx", { id: "privacy-es" }),
  route("en/privacy", "routes/legal.tsx", { id: "privacy-en" }),
  route("aviso-legal", "routes/legal.tsx", { id: "legal-notice-es" }),
  route("en/legal-notice", "routes/legal.tsx", { id: "legal-notice-en" }),
  route("sitemap.xml", "routes/sitemap.ts", { id: "sitemap-es" }),
  route("en/sitemap.xml", "routes/sitemap.ts", { id: "sitemap-en" }),
  route("robots.txt", "routes/robots.ts"),
  route("mail/send", "routes/mail-send.ts"),
  // REST API: JSON resource routes behind bearer tokens (app/.server/api/handler.ts); the
  // operations' schemas in app/.server/api/operations/ also make /api/v1/openapi.json.
  ...prefix("api/v1", [
    route("audit", "routes/api/audit.ts"),
    route("audit/verify", "routes/api/audit-verify.ts"),
    route("openapi.json", "routes/api/openapi.ts"),
  ]),
  route("api/*", "routes/api/not-found.ts", { id: "api-not-found" }),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
