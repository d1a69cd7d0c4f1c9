/** The platform's labels: areas, jurisdictions and kinds with their names in both languages. */
import { z } from "zod";
import { defineOperation } from "../registry.ts";

const entry = z.object({ id: z.string(), name: z.object({ es: z.string(), en: z.string() }) });

export const taxonomyOperation = defineOperation({
  method: "get",
  path: "/api/v1/taxonomy",
  operationId: "getTaxonomy",
  summary: "Areas, jurisdictions and kinds, the ids every filter takes",
  tags: ["documents"],
  scope: "read",
  responses: {
    200: {
      description: "The taxonomy",
      schema: z.object({ areas: z.array(entry), jurisdictions: z.array(entry), kinds: z.array(entry) }),
    },
  },
});
