/** The ingestion sources over the API (admin scope): their status, and "run now". */
import { z } from "zod";
import { SOURCE_FAILURE_KINDS } from "../../sources/errors.ts";
import { registeredSources } from "../../sources/registry.ts";
import { apiErrorSchema } from "../errors.ts";
import { defineOperation } from "../registry.ts";

/**
 * A source entry's id: a registered source's id (sources/registry.ts, read when the operations
 * are declared), or the id of one of the organisation's own entries (an RSS/Atom feed).
 */
const singleEntrySources = registeredSources()
  .filter((source) => !source.entries)
  .map((source) => source.id);
export const sourceEntryIdSchema = z
  .union([
    z.enum(singleEntrySources as [string, ...string[]]).meta({ description: "A registered source" }),
    z.uuid().meta({ description: "One of the organisation's RSS/Atom feeds" }),
  ])
  .meta({ description: `${singleEntrySources.join(", ")}, or the id of one of the organisation's RSS/Atom feeds` });

export const sourceStatusSchema = z
  .object({
    id: sourceEntryIdSchema,
    lastSuccessAt: z.iso.datetime().nullable(),
    lastError: z.string().nullable().meta({ description: "The last error's technical message (English)" }),
    lastErrorKind: z
      .enum(SOURCE_FAILURE_KINDS)
      .nullable()
      .meta({ description: "What kind of failure the last error was; null without an error" }),
    lastErrorPast: z.boolean().meta({ description: "True once a run that started after the last error succeeded" }),
    documentsToday: z.int().min(0).meta({ description: "Documents added today (Europe/Madrid)" }),
  })
  .strict();

export const listSourcesOperation = defineOperation({
  method: "get",
  path: "/api/v1/sources",
  operationId: "listSources",
  summary: "Every source with its last success, last error and documents added today",
  tags: ["sources"],
  scope: "admin",
  responses: { 200: { description: "BOE, EUR-Lex and the organisation's feeds", schema: z.array(sourceStatusSchema) } },
});

export const runSourceOperation = defineOperation({
  method: "post",
  path: "/api/v1/sources/{id}/run",
  operationId: "runSource",
  summary: "Queue an ingestion of this source now",
  tags: ["sources"],
  scope: "admin",
  params: z.object({ id: z.string() }),
  responses: {
    202: {
      description: "Queued (jobId null: a run of this source was already queued seconds ago)",
      schema: z.object({ id: z.string(), jobId: z.string().nullable() }).strict(),
    },
    503: { description: "Ingestion is turned off on this server (INGEST_SOURCES=none)", schema: apiErrorSchema },
  },
});
