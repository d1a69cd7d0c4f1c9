/**
 * Triage and obligations over the API (issue 26). Like corrections, these are a member's work:
 * a `read` token (any member's) reads and changes them, as its creator; admin tokens too. Every
 * change is audited and sent as a webhook event (document.triaged, obligation.created,
 * obligation.updated). Documents outside the organisation's reach answer 404.
 */
import { z } from "zod";
import { calendarDate } from "../../../lib/calendar-date.ts";
import { obligationStatuses, triageImpacts, triageStatuses } from "../../db/schema/triage.ts";
import { obligationCreateSchema, obligationPatchSchema } from "../../triage/obligations.ts";
import { triagePatchSchema } from "../../triage/store.ts";
import { defineOperation } from "../registry.ts";

const day = calendarDate();
const empty = (value: unknown) => (value === "" ? undefined : value);

const assigneeSchema = z
  .object({ type: z.enum(["user", "group"]), id: z.string(), name: z.string() })
  .strict()
  .meta({ description: "A member (user) or a group of the organisation" });

const changesSchema = z
  .record(z.string(), z.object({ from: z.unknown(), to: z.unknown() }).strict())
  .meta({ description: "The fields changed: { field: { from, to } }" });

export const triageSchema = z
  .object({
    documentId: z.uuid(),
    status: z.enum(triageStatuses),
    assignee: assigneeSchema.nullable(),
    dueOn: day.nullable(),
    dueSource: z.enum(["entry_into_force", "application", "manual"]).nullable(),
    impact: z.enum(triageImpacts).nullable(),
    rationale: z.string(),
    overdue: z.boolean(),
    updatedAt: z.string(),
    updatedBy: z.string().nullable(),
  })
  .strict()
  .meta({ description: "An organisation's triage of one document" });

const historySchema = z.array(
  z
    .object({
      id: z.number().int(),
      at: z.string(),
      actor: z.object({ id: z.string(), name: z.string() }).strict(),
      changes: changesSchema,
      note: z.string().nullable(),
    })
    .strict(),
);

export const getTriageOperation = defineOperation({
  method: "get",
  path: "/api/v1/documents/{id}/triage",
  operationId: "getDocumentTriage",
  summary: "Your organisation's triage of a document, with its history",
  description:
    "A document no alert has brought and no one has triaged yet answers `status: new` with the proposed due date (`triage.updatedBy` null, `history` empty).",
  tags: ["triage"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: {
    200: {
      description: "The triage and its history, oldest first",
      schema: z.object({ triage: triageSchema, history: historySchema }).strict(),
    },
  },
});

export const putTriageOperation = defineOperation({
  method: "put",
  path: "/api/v1/documents/{id}/triage",
  operationId: "updateDocumentTriage",
  summary: "Change your organisation's triage of a document",
  description:
    "Only the fields sent change. Setting `dueOn` makes its source `manual`. Audited (`triage.updated`) and sent to your webhooks as `document.triaged`.",
  tags: ["triage"],
  scope: "read",
  params: z.object({ id: z.string() }),
  body: triagePatchSchema("en"),
  bodyFor: ({ locale }) => triagePatchSchema(locale),
  responses: {
    200: {
      description: "The triage after the change",
      schema: z.object({ triage: triageSchema, changes: changesSchema }).strict(),
    },
  },
});

export const listTriageOperation = defineOperation({
  method: "get",
  path: "/api/v1/triage",
  operationId: "listTriage",
  summary: "Your organisation's triage items, by due date",
  tags: ["triage"],
  scope: "read",
  query: z.object({
    status: z.preprocess(empty, z.string().max(200).optional()).meta({
      description: `Comma-separated statuses: ${triageStatuses.join(", ")}`,
    }),
    assignee: z
      .preprocess(empty, z.string().max(120).optional())
      .meta({ description: "`me` (the token's creator and their groups), `none`, `user:<id>` or `group:<id>`" }),
    area: z.preprocess(empty, z.string().max(60).optional()).meta({ description: "An area id of the taxonomy" }),
    due_from: z.preprocess(empty, day.optional()).meta({ description: "Due on or after (YYYY-MM-DD)" }),
    due_to: z.preprocess(empty, day.optional()).meta({ description: "Due on or before (YYYY-MM-DD)" }),
    overdue: z
      .preprocess(empty, z.enum(["1", "true", "0", "false"]).optional())
      .meta({ description: "Only overdue items" }),
    page: z
      .preprocess(empty, z.coerce.number().int().min(1).max(10_000).optional())
      .meta({ description: "1-based page of 25" }),
  }),
  responses: {
    200: {
      description: "One page of items",
      schema: z
        .object({
          items: z.array(
            z
              .object({
                documentId: z.uuid(),
                sourceId: z.string(),
                title: z.string(),
                publishedOn: day,
                areas: z.array(z.string()),
                status: z.enum(triageStatuses),
                assignee: assigneeSchema.nullable(),
                dueOn: day.nullable(),
                dueSource: z.enum(["entry_into_force", "application", "manual"]).nullable(),
                impact: z.enum(triageImpacts).nullable(),
                overdue: z.boolean(),
                updatedAt: z.string(),
              })
              .strict(),
          ),
          total: z.number().int(),
          page: z.number().int(),
          pageCount: z.number().int(),
        })
        .strict(),
    },
  },
});

export const obligationSchema = z
  .object({
    id: z.uuid(),
    documentId: z.uuid(),
    anchor: z.string().meta({ description: "The paragraph's anchor in the document's text (p-0, p-1…)" }),
    excerpt: z.string().meta({ description: "The paragraph's text when the obligation was recorded" }),
    title: z.string(),
    description: z.string(),
    owner: assigneeSchema.nullable(),
    dueOn: day.nullable(),
    status: z.enum(obligationStatuses),
    reference: z.string().meta({ description: "The internal policy or control it touches" }),
    overdue: z.boolean(),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ description: "An obligation a document puts on the organisation" });

export const listDocumentObligationsOperation = defineOperation({
  method: "get",
  path: "/api/v1/documents/{id}/obligations",
  operationId: "listDocumentObligations",
  summary: "Your organisation's obligations from a document",
  tags: ["triage"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: { 200: { description: "By due date", schema: z.array(obligationSchema) } },
});

export const createObligationOperation = defineOperation({
  method: "post",
  path: "/api/v1/documents/{id}/obligations",
  operationId: "createObligation",
  summary: "Record an obligation from a document that applies",
  description:
    "The document's triage must say it applies (`applies`, `in_progress` or `done`): otherwise 422. The anchor names a paragraph of the document's text; its text is kept as the excerpt. Audited (`obligation.created`) and sent to your webhooks.",
  tags: ["triage"],
  scope: "read",
  params: z.object({ id: z.string() }),
  body: obligationCreateSchema("en"),
  bodyFor: ({ locale }) => obligationCreateSchema(locale),
  responses: { 201: { description: "The obligation", schema: obligationSchema } },
});

export const getObligationOperation = defineOperation({
  method: "get",
  path: "/api/v1/obligations/{id}",
  operationId: "getObligation",
  summary: "One obligation, with its history",
  tags: ["triage"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: {
    200: { description: "The obligation", schema: obligationSchema.extend({ history: historySchema }).strict() },
  },
});

export const patchObligationOperation = defineOperation({
  method: "patch",
  path: "/api/v1/obligations/{id}",
  operationId: "updateObligation",
  summary: "Change an obligation",
  description: "Only the fields sent change. Audited (`obligation.updated`) and sent to your webhooks.",
  tags: ["triage"],
  scope: "read",
  params: z.object({ id: z.string() }),
  body: obligationPatchSchema("en"),
  bodyFor: ({ locale }) => obligationPatchSchema(locale),
  responses: { 200: { description: "The obligation after the change", schema: obligationSchema } },
});

export const listObligationsOperation = defineOperation({
  method: "get",
  path: "/api/v1/obligations",
  operationId: "listObligations",
  summary: "Your organisation's register of obligations (JSON or CSV)",
  tags: ["triage"],
  scope: "read",
  query: z.object({
    status: z
      .preprocess(empty, z.string().max(200).optional())
      .meta({ description: `Comma-separated statuses: ${obligationStatuses.join(", ")}` }),
    owner: z.preprocess(empty, z.string().max(120).optional()).meta({ description: "`user:<id>` or `group:<id>`" }),
    document: z.preprocess(empty, z.uuid().optional()).meta({ description: "One document's obligations" }),
    due_from: z.preprocess(empty, day.optional()).meta({ description: "Due on or after (YYYY-MM-DD)" }),
    due_to: z.preprocess(empty, day.optional()).meta({ description: "Due on or before (YYYY-MM-DD)" }),
    overdue: z
      .preprocess(empty, z.enum(["1", "true", "0", "false"]).optional())
      .meta({ description: "Only overdue ones" }),
    format: z.preprocess(empty, z.enum(["json", "csv"]).optional()).meta({ description: "json (default) or csv" }),
  }),
  responses: {
    200: {
      description: "The obligations, by due date",
      schema: z.array(obligationSchema.extend({ sourceId: z.string(), documentTitle: z.string() }).strict()),
      alternatives: { "text/csv": { schema: z.string() } },
    },
  },
});
