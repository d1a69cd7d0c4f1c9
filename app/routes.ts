import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";

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
    route("corrections", "routes/api/corrections.ts"),
    route("documents", "routes/api/documents.ts"),
    route("documents/:id", "routes/api/document.ts"),
    route("documents/:id/corrections", "routes/api/document-corrections.ts"),
    route("laws/:id/compare", "routes/api/law-compare.ts"),
    route("openapi.json", "routes/api/openapi.ts"),
    route("sources", "routes/api/sources.ts"),
    route("sources/:id/run", "routes/api/source-run.ts"),
    route("taxonomy", "routes/api/taxonomy.ts"),
    route("webhooks", "routes/api/webhooks.ts"),
    route("webhooks/:id", "routes/api/webhook.ts"),
  ]),
  route("api/*", "routes/api/not-found.ts", { id: "api-not-found" }),
  // The platform (/app): one route group, its layout and middleware (app/.server/auth/guard.ts).
  ...prefix("app", [
    layout("routes/app/layout.tsx", { id: "app-layout" }, [
      route("login", "routes/app/login.tsx", { id: "app-login" }),
      route("setup/:token", "routes/app/setup.tsx", { id: "app-setup" }),
      route("invite/:token", "routes/app/invite.tsx", { id: "app-invite" }),
      route("reset", "routes/app/reset.tsx", { id: "app-reset" }),
      route("reset/:token", "routes/app/reset-token.tsx", { id: "app-reset-token" }),
      route("mfa", "routes/app/mfa.tsx", { id: "app-mfa" }),
      route("logout", "routes/app/logout.ts", { id: "app-logout" }),
      route("locale", "routes/app/locale.ts", { id: "app-locale" }),
      route("passkey/:step", "routes/app/passkey.ts", { id: "app-passkey" }),
      // Server-Sent Events for the signed-in member's alerts (401 without a session: EventSource stops).
      route("events", "routes/app/events.ts", { id: "app-events" }),
      layout("routes/app/guarded.tsx", { id: "app-guarded" }, [
        index("routes/app/home.tsx", { id: "app-home" }),
        route("account", "routes/app/account.tsx", { id: "app-account" }),
        route("alerts", "routes/app/alerts.tsx", { id: "app-alerts" }),
        route("profiles", "routes/app/profiles.tsx", { id: "app-profiles" }),
        route("profiles/new", "routes/app/profile-edit.tsx", { id: "app-profile-new" }),
        route("profiles/:id", "routes/app/profile-edit.tsx", { id: "app-profile-edit" }),
        route("admin/deliveries", "routes/app/admin-deliveries.tsx", { id: "app-admin-deliveries" }),
        route("documents/:id", "routes/app/document.tsx", { id: "app-document" }),
        route("search", "routes/app/search.tsx", { id: "app-search" }),
        route("laws", "routes/app/laws.tsx", { id: "app-laws" }),
        route("laws/:id", "routes/app/law.tsx", { id: "app-law" }),
        route("laws/:id/compare", "routes/app/law-compare.tsx", { id: "app-law-compare" }),
        route("admin/members", "routes/app/admin-members.tsx", { id: "app-admin-members" }),
        route("admin/groups", "routes/app/admin-groups.tsx", { id: "app-admin-groups" }),
        route("admin/tokens", "routes/app/admin-tokens.tsx", { id: "app-admin-tokens" }),
        route("admin/audit", "routes/app/admin-audit.tsx", { id: "app-admin-audit" }),
        route("admin/topics", "routes/app/admin-topics.tsx", { id: "app-admin-topics" }),
        route("admin/sources", "routes/app/admin-sources.tsx", { id: "app-admin-sources" }),
        route("admin/audit/export", "routes/app/admin-audit-export.ts", { id: "app-admin-audit-export" }),
        route("admin/corrections", "routes/app/admin-corrections.tsx", { id: "app-admin-corrections" }),
        route("admin/corrections/export", "routes/app/admin-corrections-export.ts", {
          id: "app-admin-corrections-export",
        }),
      ]),
      route("*", "routes/app/not-found.tsx", { id: "app-not-found" }),
    ]),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
