/** Documents over the API: the same search as the platform's page, with cursor pagination, and one document with its text. */
import { z } from "zod";
import { calendarDate } from "../../../lib/calendar-date.ts";
import { areaIds, jurisdictionIds, kindIds, relevanceIds } from "../../../lib/taxonomy.ts";
import { registeredSourceIds, type SourceId } from "../../sources/registry.ts";
import { defineOperation } from "../registry.ts";

const day = calendarDate();
/** The registered sources' ids (sources/registry.ts), read when the operations are declared. */
const sourceIds = registeredSourceIds() as [SourceId, ...SourceId[]];

/** The Document of ARCHITECTURE.md, exactly (strict: no extra keys). */
export const documentSchema = z
  .object({
    id: z.uuid(),
    source: z.enum(sourceIds),
    sourceId: z.string().meta({ description: "BOE-A-…, a CELEX number, or a feed entry's id" }),
    title: z.string(),
    language: z.enum(["es", "en"]),
    titles: z.object({ es: z.string().optional(), en: z.string().optional() }).strict(),
    publishedOn: day,
    kind: z.string().nullable(),
    rank: z.string().nullable(),
    department: z.string().nullable(),
    jurisdiction: z.string().nullable(),
    areas: z.array(
      z.object({ id: z.string(), score: z.number().min(0).max(1), reasons: z.array(z.string()) }).strict(),
    ),
    relevance: z.enum(relevanceIds).nullable(),
    officialUrl: z.string(),
    effectiveDates: z.array(day),
    provenance: z.array(
      z
        .object({
          url: z.string(),
          fetchedAt: z.string(),
          sha256: z.string(),
          parser: z.string(),
          sample: z
            .literal(true)
            .optional()
            .meta({ description: "Present on the bundled recorded sample: url is where the bytes were recorded" }),
        })
        .strict(),
    ),
    sample: z.boolean(),
  })
  .strict()
  .meta({ description: "A regulatory document with its classification and provenance" });

export const documentDetailSchema = documentSchema
  .extend({
    text: z.string().meta({ description: "The plain text, paragraphs separated by a blank line" }),
    relations: z.array(
      z
        .object({
          type: z
            .string()
            .meta({ description: "modifies, repeals, cites, …; `:inverse` when the other document acts on this one" }),
          targetSourceId: z.string(),
          documentId: z.uuid().nullable().meta({ description: "The related document when it is stored" }),
          label: z.string(),
        })
        .strict(),
    ),
    changes: z
      .array(
        z
          .object({
            lawId: z.string().meta({ description: "The norm this act changes (BOE-A-…, or an EU act's CELEX number)" }),
            verb: z.enum(["modifies", "adds", "repeals", "removes", "suspends", "voids", "corrects"]),
            line: z.string().meta({
              description: "The analysis' line as the document page shows it: Modifica el art. 13 de la Ley 38/2003…",
            }),
            text: z.string().meta({ description: "The line without its verb, as the BOE's analysis writes it" }),
            lawTitle: z
              .string()
              .nullable()
              .meta({ description: "The law's title, when the organisation follows it and its text is held" }),
            blockIds: z
              .array(z.string())
              .meta({ description: "The law's blocks the line names (when its text is held)" }),
            lawPath: z.string().nullable().meta({
              description:
                "The platform's law page, at the first block named; null when the organisation does not follow the law",
            }),
            consolidated: z
              .array(z.object({ blockId: z.string(), title: z.string(), comparePath: z.string() }).strict())
              .meta({
                description: "Blocks whose consolidated text already holds this act's wording, with the comparison",
              }),
            followed: z.boolean().meta({ description: "Whether the token's organisation follows the law" }),
            texts: z.object({ es: z.string(), en: z.string() }).strict().optional().meta({
              description:
                "EU acts only: the amended, repealed or corrected act as cited in Spanish and English (Regulation (EU) 2016/679)",
            }),
          })
          .strict(),
      )
      .meta({
        description:
          "What this act changes: the BOE's analysis for BOE acts, Cellar's amends/repeals/corrects relations for EU acts (empty for feeds)",
      }),
  })
  .strict()
  .meta({ description: "A document with its text, its relations to other norms and what it changes" });

const empty = (value: unknown) => (value === "" ? undefined : value);
const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, description: string) =>
  z.preprocess(empty, z.enum(values).optional()).meta({ description });

/** The search filters of the API and of the /app/search page (one schema for both). */
export const documentQuerySchema = z.object({
  q: z
    .preprocess(empty, z.string().trim().max(500).optional())
    .meta({ description: 'Full text (Spanish and English): words, "phrases", -exclusions, OR, word* prefixes' }),
  source: optionalEnum(sourceIds, `A source id: ${sourceIds.join(", ")}`),
  area: optionalEnum(areaIds, "A taxonomy area id (GET /api/v1/taxonomy)"),
  jurisdiction: optionalEnum(jurisdictionIds, "EU, ES or an autonomous community (ES-CT, …)"),
  kind: optionalEnum(kindIds, "A taxonomy kind id (law, royal-decree, regulation, …)"),
  relevance: optionalEnum(relevanceIds, "high, medium or low"),
  from: z.preprocess(empty, day.optional()).meta({ description: "Published on or after (YYYY-MM-DD)" }),
  to: z.preprocess(empty, day.optional()).meta({ description: "Published on or before (YYYY-MM-DD)" }),
  sort: optionalEnum(["relevance", "date"] as const, "relevance (the default with q) or date (newest first)"),
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: "Items per page, 1..100" }),
  cursor: z
    .preprocess(
      empty,
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,200}$/)
        .optional(),
    )
    .meta({ description: "nextCursor of the previous page" }),
});

export type DocumentQuery = z.output<typeof documentQuerySchema>;

export const listDocumentsOperation = defineOperation({
  method: "get",
  path: "/api/v1/documents",
  operationId: "listDocuments",
  summary: "Search documents: full text, filters, cursor pagination",
  description:
    "With `q` the order is by relevance over every match unless `sort=date`; without it, newest first. Title, department and labels weigh more than the text; a query naming an area (Spanish or English) matches that area's documents and ranks them first (with your organisation's corrections); a query is also searched in its translations (EuroVoc, a glossary), so English queries reach Spanish documents. \"Phrases\", -exclusions, OR and word* prefixes are searched as typed.",
  tags: ["documents"],
  scope: "read",
  query: documentQuerySchema,
  responses: {
    200: {
      description: "A page of documents",
      schema: z.object({ items: z.array(documentSchema), nextCursor: z.string().nullable() }).strict(),
    },
  },
});

export const getDocumentOperation = defineOperation({
  method: "get",
  path: "/api/v1/documents/{id}",
  operationId: "getDocument",
  summary: "One document with its text and relations",
  tags: ["documents"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: { 200: { description: "The document", schema: documentDetailSchema } },
});
