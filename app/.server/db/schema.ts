/**
 * Every table, one module per capability. drizzle-kit reads this file (npm run db:generate)
 * and the database client types its queries with it: add a capability's module here.
 */

export * from "./schema/alerts.ts";
export * from "./schema/api.ts";
export * from "./schema/audit.ts";
export * from "./schema/auth.ts";
export * from "./schema/calendar.ts";
export * from "./schema/classify.ts";
export * from "./schema/collab.ts";
export * from "./schema/corrections.ts";
export * from "./schema/documents.ts";
export * from "./schema/laws.ts";
export * from "./schema/profile-feeds.ts";
export * from "./schema/searches.ts";
export * from "./schema/site.ts";
export * from "./schema/sso.ts";
export * from "./schema/triage.ts";
