/** The taxonomy's ids the alert filters and webhook subscriptions accept: the platform's one taxonomy (app/lib/taxonomy.ts). */
export { areaIds, jurisdictionIds, kindIds } from "../../lib/taxonomy.ts";

/** The sources a document can come from (app/.server/documents/types.ts SourceId). */
export const sourceIds = ["boe", "eurlex", "feed"] as const;
