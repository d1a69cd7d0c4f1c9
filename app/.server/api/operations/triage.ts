/**
 * Triage and obligations over the API (issue 26). Like corrections, these are a member's work:
 * a `read` token (any member's) reads and changes them, as its creator; admin tokens too. Every
 * change is audited and sent as a webhook event (document.triaged, obligation.created,
 * obligation.updated). Documents outside the organisation's reach answer 404. Obligations may be
 * anchored to an article of a law the organisation follows (issue 39): its new wording opens a
 * review (`obligation.review_needed`), decided over the API or on the review page.
 */
import { z } from "zod";
import { calendarDate } from "../../../lib/calendar-date.ts";
import {
  obligationAnchorKinds,
  obligationStatuses,
  reviewDecisions,
  triageImpacts,
  triageStatuses,
} from "../../db/schema/triage.ts";
import { lawObligationCreateSchema, obligationCreateSchema, obligationPatchSchema } from "../../triage/obligations.ts";
import { reviewDecisionSchema } from "../../triage/reviews.ts";
import { triagePatchSchema } from "../../triage/store.ts";
import { defineOperation } from "../registry.ts";
import { diffRowSchema } from "./law-compare.ts";

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

const lawAnchorSchema = z
  .object({
    id: z.string().meta({ description: "The law (BOE-A-…, CELEX)" }),
    title: z.string(),
    blockId: z.string().meta({ description: "The article's block id" }),
    blockTitle: z.string().meta({ description: "The article in words (Artículo 13. …)" }),
    version: z
      .object({ normId: z.string(), publishedOn: z.string(), inForceOn: z.string().nullable() })
      .strict()
      .meta({ description: "The version anchored: the norm that gave its wording and its dates" }),
    href: z.string().meta({ description: "The law page at the article (the platform's path)" }),
  })
  .strict()
  .meta({ description: "An article anchor: the followed law, the article and the version" });

export const obligationSchema = z
  .object({
    id: z.uuid(),
    anchorKind: z
      .enum(obligationAnchorKinds)
      .meta({ description: "paragraph: a paragraph of a document; article: an article of a followed law" }),
    documentId: z.uuid().nullable().meta({ description: "A paragraph anchor's document; null for an article anchor" }),
    anchor: z
      .string()
      .meta({ description: "The paragraph's anchor in the document's text (p-0, p-1…), or the article's block id" }),
    law: lawAnchorSchema.nullable(),
    reviewNeeded: z
      .boolean()
      .meta({ description: "The anchored article's wording changed and the review is not decided yet" }),
    excerpt: z.string().meta({ description: "The paragraph's text, or the article's wording at the anchored version" }),
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
  .meta({ description: "An obligation a document or a followed law's article puts on the organisation" });

const versionRefSchema = z
  .object({
    versionId: z.string(),
    normId: z.string(),
    publishedOn: z.string(),
    inForceOn: z.string().nullable(),
    text: z.string().meta({ description: "The wording, one paragraph a line" }),
  })
  .strict();

export const reviewEntrySchema = z
  .object({
    id: z.uuid(),
    openedAt: z.string(),
    from: versionRefSchema.meta({ description: "The version anchored when the review opened" }),
    to: versionRefSchema.meta({ description: "The new version" }),
    decision: z.enum(reviewDecisions).nullable().meta({ description: "null while the review is open" }),
    note: z.string().nullable(),
    newText: z.string().nullable(),
    decidedBy: z.object({ id: z.string(), name: z.string() }).strict().nullable(),
    decidedAt: z.string().nullable(),
  })
  .strict()
  .meta({ description: "A review the anchored article's new wording opened, and its decision" });

const diffSchema = z
  .object({
    rows: z.array(diffRowSchema),
    identical: z.boolean(),
    insertedWords: z.number().int(),
    deletedWords: z.number().int(),
    changedParagraphs: z.number().int(),
  })
  .meta({ description: "The word-level comparison (as GET /api/v1/laws/{id}/compare)" });

export const listLawObligationsOperation = defineOperation({
  method: "get",
  path: "/api/v1/laws/{id}/obligations",
  operationId: "listLawObligations",
  summary: "Your organisation's obligations anchored to a followed law's articles",
  tags: ["triage"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: { 200: { description: "By due date", schema: z.array(obligationSchema) } },
});

export const createLawObligationOperation = defineOperation({
  method: "post",
  path: "/api/v1/laws/{id}/obligations",
  operationId: "createLawObligation",
  summary: "Record an obligation anchored to an article of a law you follow",
  description:
    "The law must be one your organisation follows (else 404). `block` names the article; `version` the version anchored (its amending norm; the article's newest when omitted); its wording is kept as the excerpt. When the article's consolidated text changes, the obligation goes to review (`obligation.review_needed`). Audited (`obligation.created`) and sent to your webhooks.",
  tags: ["triage"],
  scope: "read",
  params: z.object({ id: z.string() }),
  body: lawObligationCreateSchema("en"),
  bodyFor: ({ locale }) => lawObligationCreateSchema(locale),
  responses: { 201: { description: "The obligation", schema: obligationSchema } },
});

export const getObligationReviewOperation = defineOperation({
  method: "get",
  path: "/api/v1/obligations/{id}/review",
  operationId: "getObligationReview",
  summary: "An obligation's review: the anchored wording against the new one, and its reviews",
  description:
    "`review` is the open review (else the latest decided one, else null); `diff` compares its two wordings word by word.",
  tags: ["triage"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: {
    200: {
      description: "The review",
      schema: z
        .object({
          obligation: obligationSchema,
          review: reviewEntrySchema.nullable(),
          diff: diffSchema.nullable(),
          history: z.array(reviewEntrySchema),
        })
        .strict(),
    },
  },
});

export const decideObligationReviewOperation = defineOperation({
  method: "post",
  path: "/api/v1/obligations/{id}/review",
  operationId: "decideObligationReview",
  summary: "Decide an obligation's open review",
  description:
    "`still_applies`, `changed` (with `text`, the obligation's new description, and/or a `note`) or `no_longer_applies` (the obligation becomes `not_applicable`). Re-anchors the obligation to the new version; recorded with you and the time, audited (`obligation.reviewed`) and sent to your webhooks (`obligation.updated`). 422 when no review is open.",
  tags: ["triage"],
  scope: "read",
  params: z.object({ id: z.string() }),
  body: reviewDecisionSchema("en"),
  bodyFor: ({ locale }) => reviewDecisionSchema(locale),
  responses: {
    200: {
      description: "The obligation re-anchored and the decided review",
      schema: z.object({ obligation: obligationSchema, review: reviewEntrySchema }).strict(),
    },
  },
});

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
    review: z
      .preprocess(empty, z.enum(["1", "true", "0", "false"]).optional())
      .meta({ description: "Only those whose anchored article changed and wait for a review" }),
    law: z
      .preprocess(empty, z.string().max(60).optional())
      .meta({ description: "One followed law's obligations (its id)" }),
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
