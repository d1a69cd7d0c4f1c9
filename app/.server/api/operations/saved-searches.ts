/** Saved searches over the API (issue 39): the token's creator's named searches, as on /app/searches. */
import { z } from "zod";
import { savedFiltersSchema } from "../../searches/saved.ts";
import { defineOperation } from "../registry.ts";

const filterText = (description: string) => z.string().optional().meta({ description });

export const savedSearchSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    filters: z
      .object({
        q: filterText("Full text, as in GET /api/v1/documents"),
        source: filterText("A source id"),
        area: filterText("An area id"),
        jurisdiction: filterText("A jurisdiction id"),
        kind: filterText("A kind id"),
        relevance: filterText("high, medium or low"),
        from: filterText("Published on or after (YYYY-MM-DD)"),
        to: filterText("Published on or before (YYYY-MM-DD)"),
        sort: filterText("relevance or date"),
      })
      .strict()
      .meta({ description: "The search's parameters, those of GET /api/v1/documents (empty ones left out)" }),
    createdAt: z.string().meta({ description: "ISO 8601" }),
    documentsPath: z.string().meta({ description: "Run it over the API: GET this path (add limit and cursor)" }),
    searchPath: z.string().meta({ description: "Run it in the platform: the search page with these filters" }),
    alertPath: z.string().meta({
      description: "The platform's new alert profile page with these filters and the preview of the last 30 days",
    }),
  })
  .strict()
  .meta({ description: "A member's saved search" });

export const savedSearchInputSchema = z
  .object({
    name: z.string().trim().min(1).max(120).meta({ description: "Unique among the member's saved searches" }),
    filters: savedFiltersSchema.meta({
      description:
        "The parameters of GET /api/v1/documents but limit and cursor; at least one besides sort. Unknown keys are refused",
    }),
  })
  .strict();

export const listSavedSearchesOperation = defineOperation({
  method: "get",
  path: "/api/v1/saved-searches",
  operationId: "listSavedSearches",
  summary: "The token's creator's saved searches",
  description: "Saved searches belong to one member of the organisation; a token lists its creator's, by name.",
  tags: ["saved-searches"],
  scope: "read",
  responses: {
    200: { description: "Saved searches", schema: z.object({ items: z.array(savedSearchSchema) }).strict() },
  },
});

export const createSavedSearchOperation = defineOperation({
  method: "post",
  path: "/api/v1/saved-searches",
  operationId: "createSavedSearch",
  summary: "Save a search under a name",
  description:
    "For the token's creator. 422 with field errors (in the request's language) for invalid filters, a search that selects nothing, a name already used, or past 100 saved searches. Audited (`saved_search.created`).",
  tags: ["saved-searches"],
  scope: "read",
  body: savedSearchInputSchema,
  responses: { 201: { description: "The saved search", schema: savedSearchSchema } },
});

export const deleteSavedSearchOperation = defineOperation({
  method: "delete",
  path: "/api/v1/saved-searches/{id}",
  operationId: "deleteSavedSearch",
  summary: "Delete a saved search",
  description: "Only the token's creator's own; another member's is 404. Audited (`saved_search.deleted`).",
  tags: ["saved-searches"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: { 204: { description: "Deleted" } },
});
