/**
 * The catalogue of laws to follow over the API (issue 39): search the BOE's consolidated laws and
 * the EU's consolidated acts by title, number, identifier or common name. Public data: any token
 * reads it, and it says nothing of what the organisation follows (GET /api/v1/follows does).
 */
import { z } from "zod";
import { CATALOGUE_QUERY_MAX } from "../../laws/catalogue.ts";
import { defineOperation } from "../registry.ts";

const entrySchema = z
  .object({
    id: z.string().meta({ description: "BOE-A-… id or CELEX number: what POST /api/v1/follows takes as lawId" }),
    source: z.enum(["boe", "eu"]),
    title: z.string().meta({ description: "The official title, in the language asked for where the source gives it" }),
    number: z.string().nullable().meta({ description: "Official number (38/2003, 2016/679)" }),
    rank: z.string().nullable().meta({ description: "Ley, Real Decreto, Regulation, Directive…" }),
    commonNames: z.array(z.string()).meta({ description: "Acronyms and common names (LOPDGDD, GDPR, …)" }),
    datedOn: z.iso.date().nullable(),
    inForce: z.boolean(),
    eli: z.string().nullable(),
  })
  .strict();

const empty = (value: unknown) => (value === "" ? undefined : value);

export const catalogueQuerySchema = z
  .object({
    q: z
      .string()
      .trim()
      .min(1)
      .max(CATALOGUE_QUERY_MAX)
      .meta({ description: "Title words, number (Ley 38/2003, 2016/679), id, CELEX or common name (LOPDGDD, GDPR)" }),
    source: z.preprocess(empty, z.enum(["boe", "eu"]).optional()),
    lang: z
      .preprocess(empty, z.enum(["es", "en"]).optional())
      .meta({ description: "Titles and names in (default es)" }),
    limit: z.preprocess(empty, z.coerce.number().int().min(1).max(100).optional()),
    offset: z.preprocess(empty, z.coerce.number().int().min(0).max(10_000).optional()),
  })
  .strict();

export const searchCatalogueOperation = defineOperation({
  method: "get",
  path: "/api/v1/laws/catalogue",
  operationId: "searchLawCatalogue",
  summary: "Find a law to follow by title, number, identifier or common name (Spanish or English)",
  tags: ["laws"],
  scope: "read",
  query: catalogueQuerySchema,
  responses: {
    200: {
      description: "Matching laws, best first",
      schema: z
        .object({
          items: z.array(entrySchema),
          more: z.boolean().meta({ description: "More matches after this page (raise offset)" }),
        })
        .strict(),
    },
  },
});
