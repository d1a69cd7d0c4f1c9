/**
 * Followed laws over the API (issue 25): the laws the platform holds, one law with its blocks and
 * each block's last change, a block's versions with provenance, the text in force on a date, and
 * follows (alert profiles with a law scope). Consolidated laws are public (BOE): any token reads
 * them; follows are the organisation's and audited.
 */
import { z } from "zod";
import { lawAlerts as en } from "../../../i18n/en/law-alerts.ts";
import { lawAlerts as es } from "../../../i18n/es/law-alerts.ts";
import type { Locale } from "../../../i18n/locales.ts";
import { calendarDate } from "../../../lib/calendar-date.ts";
import { defineOperation } from "../registry.ts";

const day = calendarDate();
const lawId = z.string().meta({ description: "BOE-A-… id of the enacting act (or a CELEX number for EU acts)" });

const lawSummary = z
  .object({
    id: lawId,
    source: z.enum(["boe", "eu"]),
    title: z.string(),
    eli: z.string().nullable(),
    state: z.enum(["fetched", "pending", "unknown"]).meta({
      description:
        "fetched: the text is stored; pending: followed, not fetched yet (no blocks until the source's next check); unknown: the source answered it does not know the id",
    }),
    updatedAt: z.string().nullable().meta({ description: "The source's last update of the consolidation" }),
    blocks: z.number().int(),
    pendingAnnouncements: z.number().int().meta({ description: "Changes published, consolidation pending" }),
  })
  .strict();

const versionRef = z.object({ normId: z.string(), publishedOn: day, inForceOn: day.nullable() }).strict();

const blockSchema = z
  .object({
    blockId: z.string(),
    kind: z.string(),
    title: z.string(),
    position: z.number().int(),
    latestDate: day,
    expiresOn: day.nullable(),
    versions: z.number().int(),
    lastChange: versionRef.nullable(),
  })
  .strict();

const announcementSchema = z
  .object({
    actId: z.string(),
    documentId: z.string().nullable(),
    relation: z.string(),
    articles: z.array(z.string()),
    publishedOn: day,
    consolidatedAt: z.string().nullable(),
  })
  .strict();

const attribution = z.string().meta({ description: "Source and date of last update, as the reuse conditions require" });

const lawDetail = lawSummary
  .extend({
    checkedAt: z.string().nullable().meta({ description: "When the source last looked at the law" }),
    nextCheckAt: z.string().nullable().meta({
      description: "A pending law: when the source next looks (null when fetched, or when this server does not poll)",
    }),
    metadata: z.record(z.string(), z.unknown()),
    attribution,
    blockList: z.array(blockSchema),
    announcements: z.array(announcementSchema),
  })
  .strict();

const versionSchema = versionRef
  .extend({
    text: z.string(),
    html: z.string(),
    hash: z.string(),
    correctedAt: z.string().nullable(),
    provenance: z.object({ url: z.string(), fetchedAt: z.string(), sha256: z.string() }).strict(),
  })
  .strict();

const followSchema = z
  .object({
    id: z.string(),
    lawId,
    blockIds: z
      .array(z.string())
      .meta({ description: "Empty: the whole law; a title or chapter covers what it heads" }),
    userId: z.string().nullable(),
    groupId: z.string().nullable(),
    name: z.string(),
    emailMode: z.string(),
    muted: z.boolean(),
    createdAt: z.string(),
  })
  .strict();

export const listLawsOperation = defineOperation({
  method: "get",
  path: "/api/v1/laws",
  operationId: "listLaws",
  summary: "The consolidated laws your organisation follows",
  description:
    "Only the laws your organisation follows (any member's or group's follow): another organisation's follows never show here, and a law you do not follow answers 404 on every /laws path.",
  tags: ["laws"],
  scope: "read",
  responses: { 200: { description: "Laws, by title", schema: z.object({ items: z.array(lawSummary) }).strict() } },
});

export const getLawOperation = defineOperation({
  method: "get",
  path: "/api/v1/laws/{id}",
  operationId: "getLaw",
  summary: "A law your organisation follows: metadata, its blocks with each one's last change, and announced changes",
  description:
    "A law followed but not fetched yet answers `state: pending` with no blocks and `nextCheckAt`; 404 for a law your organisation does not follow.",
  tags: ["laws"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: { 200: { description: "The law", schema: lawDetail } },
});

export const blockVersionsOperation = defineOperation({
  method: "get",
  path: "/api/v1/laws/{id}/blocks/{blockId}/versions",
  operationId: "listBlockVersions",
  summary: "Every version of one block (article, heading, provision…), oldest first, with provenance",
  tags: ["laws"],
  scope: "read",
  params: z.object({ id: z.string(), blockId: z.string() }),
  responses: {
    200: {
      description: "The block and its versions",
      schema: z.object({ block: blockSchema, versions: z.array(versionSchema) }).strict(),
    },
  },
});

/** A date that does not exist (2023-02-30) is refused, in the caller's language. */
function lawTextQuery(locale: Locale) {
  const message = (locale === "en" ? en : es).errors.badDate;
  return z.object({
    date: calendarDate({ error: message })
      .optional()
      .meta({ description: "YYYY-MM-DD, a day that exists; today when absent" }),
  });
}

export const lawTextOperation = defineOperation({
  method: "get",
  path: "/api/v1/laws/{id}/text",
  operationId: "getLawText",
  summary: "The text in force on a date (today by default): each block with the wording in force then",
  tags: ["laws"],
  scope: "read",
  params: z.object({ id: z.string() }),
  query: lawTextQuery("en"),
  queryFor: ({ locale }) => lawTextQuery(locale),
  responses: {
    200: {
      description: "The text",
      schema: z
        .object({
          lawId,
          date: day,
          attribution,
          blocks: z.array(
            z
              .object({
                blockId: z.string(),
                kind: z.string(),
                title: z.string(),
                version: versionRef,
                text: z.string(),
                pending: z.array(versionRef).meta({ description: "Published, not yet in force on the date" }),
              })
              .strict(),
          ),
        })
        .strict(),
    },
  },
});

export const followInputSchema = z
  .object({
    lawId: z.string().min(1).max(300).meta({
      description:
        "BOE-A-… id, an EU act's CELEX number (32016R0679), or the BOE ELI URL of a law your organisation already follows",
    }),
    blockIds: z.array(z.string().min(1).max(60)).max(200).optional(),
    groupId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "Follow for a group; the token's creator otherwise" }),
    name: z.string().max(200).optional(),
    emailMode: z.enum(["off", "immediate", "digest"]).optional(),
  })
  .strict();

export const listFollowsOperation = defineOperation({
  method: "get",
  path: "/api/v1/follows",
  operationId: "listFollows",
  summary: "The organisation's follows of laws",
  tags: ["laws"],
  scope: "read",
  responses: { 200: { description: "Follows", schema: z.array(followSchema) } },
});

export const createFollowOperation = defineOperation({
  method: "post",
  path: "/api/v1/follows",
  operationId: "createFollow",
  summary: "Follow a law, a title or chapter, or chosen articles",
  description:
    "For the token's creator, or for one of the organisation's groups. Alerts arrive in-app (and by mail: at once with emailMode immediate, in the daily digest with digest) when the consolidated text changes, and the day an act announcing a change is published.",
  tags: ["laws"],
  scope: "read",
  body: followInputSchema,
  responses: { 201: { description: "The follow", schema: followSchema } },
});

export const deleteFollowOperation = defineOperation({
  method: "delete",
  path: "/api/v1/follows/{id}",
  operationId: "deleteFollow",
  summary: "Stop following",
  tags: ["laws"],
  scope: "read",
  params: z.object({ id: z.string() }),
  responses: { 204: { description: "Removed" } },
});
