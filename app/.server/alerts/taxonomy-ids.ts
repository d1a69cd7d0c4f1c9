/** The taxonomy's ids the alert filters and webhook subscriptions accept: the platform's one taxonomy (app/lib/taxonomy.ts). */
import { registeredSourceIds, type SourceId } from "../sources/registry.ts";

export { areaIds, jurisdictionIds, kindIds } from "../../lib/taxonomy.ts";

/** The sources a document can come from: the registered sources (app/.server/sources/registry.ts). */
export const sourceIds = registeredSourceIds() as [SourceId, ...SourceId[]];
