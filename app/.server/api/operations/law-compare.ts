/** GET /api/v1/laws/{id}/compare: the word-level comparison of two versions of a law's block. */
import { z } from "zod";
import { defineOperation } from "../registry.ts";

const segment = z.object({ kind: z.enum(["same", "ins", "del"]), text: z.string() });
const version = z.object({
  normId: z.string(),
  publishedOn: z.string(),
  inForceOn: z.string().nullable(),
  url: z.string(),
});

/** The comparison's rows (also the obligation review's diff). */
export const diffRowSchema = z.object({
  kind: z.enum(["same", "changed", "added", "removed"]),
  left: z.array(segment).nullable(),
  right: z.array(segment).nullable(),
  inline: z.array(segment),
});

export const lawCompareSchema = z.object({
  lawId: z.string(),
  blockId: z.string(),
  title: z.string(),
  from: version,
  to: version,
  identical: z.boolean(),
  insertedWords: z.number().int(),
  deletedWords: z.number().int(),
  changedParagraphs: z.number().int(),
  rows: z.array(diffRowSchema),
});

export const lawCompareOperation = defineOperation({
  method: "get",
  path: "/api/v1/laws/{id}/compare",
  operationId: "compareLawVersions",
  summary: "Word-level comparison of two versions of a law's block",
  description:
    "`from` and `to` name a version by its amending norm (BOE-A-2019-15790, 32019R2115) or by a date (YYYY-MM-DD: the version in force that day). Without them, the latest version is compared with the one before it; with only `to`, that version with the one before it. Rows keep the paragraphs: `inline` for one text, `left` and `right` side by side (null where a paragraph exists on one side only).",
  tags: ["laws"],
  scope: "read",
  params: z.object({ id: z.string() }),
  query: z.object({
    block: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
  }),
  responses: { 200: { description: "The comparison", schema: lawCompareSchema } },
});
