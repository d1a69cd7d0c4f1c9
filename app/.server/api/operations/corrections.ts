/**
 * Corrections of a document's areas over the API (issue 23): a member's token marks an area
 * wrong or adds a missing one, with a reason; the organisation's view changes at once and its
 * alerts are matched again. Admin tokens list and export every correction as labelled data.
 */
import { z } from "zod";
import { areaIds } from "../../../lib/taxonomy.ts";
import { correctionInputSchema } from "../../documents/corrections.ts";
import { defineOperation } from "../registry.ts";
import { documentSchema } from "./documents.ts";

export const correctionSchema = z
  .object({
    id: z.uuid(),
    documentId: z.uuid(),
    area: z.enum(areaIds),
    action: z.enum(["add", "remove"]),
    reason: z.string(),
    by: z.object({ name: z.string(), email: z.string() }).strict(),
    at: z.string().meta({ description: "ISO 8601 time of the correction" }),
  })
  .strict()
  .meta({ description: "One organisation's correction of one of a document's areas" });

export const correctDocumentOperation = defineOperation({
  method: "post",
  path: "/api/v1/documents/{id}/corrections",
  operationId: "correctDocumentAreas",
  summary: "Mark one of a document's areas wrong, or add a missing one, for your organisation",
  description:
    "`action: remove` marks an area wrong, `action: add` adds a missing one; the reason is kept and shown as the area's reason. Only your organisation's view changes (the document, search filters and facets, alerts: profiles that now match get the alert, once). Correcting back (adding an area you removed, removing one you added) undoes the correction: `correction` is then null. Audited.",
  tags: ["documents"],
  scope: "read",
  params: z.object({ id: z.string() }),
  body: correctionInputSchema("en"),
  responses: {
    201: {
      description: "The correction, and the document's areas as your organisation now sees them",
      schema: z
        .object({ correction: correctionSchema.nullable(), undone: z.boolean(), areas: documentSchema.shape.areas })
        .strict(),
    },
  },
});

export const listDocumentCorrectionsOperation = defineOperation({
  method: "get",
  path: "/api/v1/documents/{id}/corrections",
  operationId: "listDocumentCorrections",
  summary: "Your organisation's corrections of a document's areas",
  tags: ["documents"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: { 200: { description: "Oldest first", schema: z.array(correctionSchema) } },
});

export const correctionExportSchema = correctionSchema
  .extend({
    sourceId: z.string(),
    title: z.string(),
    storedAreas: z.array(z.string()).meta({ description: "The classifier's areas for the document" }),
  })
  .strict();

export const listCorrectionsOperation = defineOperation({
  method: "get",
  path: "/api/v1/corrections",
  operationId: "listCorrections",
  summary: "Every area correction of your organisation, as labelled data (JSON or CSV)",
  description:
    "Newest first. `format=csv` answers a formula-safe CSV. The JSON is what `npm run platform -- classify:eval --corrections file` reads after review. Audited.",
  tags: ["documents"],
  scope: "admin",
  query: z.object({
    format: z
      .preprocess((v) => (v === "" ? undefined : v), z.enum(["json", "csv"]).optional())
      .meta({ description: "json (default) or csv" }),
  }),
  responses: {
    200: {
      description: "The corrections",
      schema: z.array(correctionExportSchema),
      alternatives: { "text/csv": { schema: z.string() } },
    },
  },
});
