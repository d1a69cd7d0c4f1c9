/** The evidence pack over the API (admin scope): GET /api/v1/evidence?document= or ?from=&to=. */
import { z } from "zod";
import { calendarDate } from "../../../lib/calendar-date.ts";
import { defineOperation } from "../registry.ts";

const day = calendarDate();
const instant = z.iso.datetime();
const person = z.object({ id: z.string(), name: z.string(), email: z.string() }).strict();
const versionText = z.object({ normId: z.string(), publishedOn: z.string(), text: z.string() }).strict();
const changes = z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() }));

export const evidenceQuerySchema = z.object({
  document: z.string().optional().meta({
    description:
      "One document's pack: its id (UUID), its BOE id (BOE-A-2024-1234) or its CELEX number (32016R0679). 422 for anything else, 404 for a document outside the organisation's reach",
  }),
  from: day.optional().meta({ description: "A period's first day (with `to`; at most a year)" }),
  to: day.optional().meta({ description: "A period's last day, included" }),
  format: z
    .enum(["json", "pdf"])
    .default("json")
    .meta({ description: "json (default) or pdf: the same pack as a PDF in the request's language (Accept-Language)" }),
});

export const evidencePackSchema = z
  .object({
    organizationId: z.string(),
    generatedAt: instant,
    generatedBy: z.object({ id: z.string(), email: z.string() }).strict(),
    scope: z.object({ document: z.uuid().nullable(), from: day.nullable(), to: day.nullable() }).strict(),
    truncated: z.boolean().meta({ description: "A period held more documents than the pack lists (200)" }),
    documents: z.array(
      z
        .object({
          id: z.uuid(),
          source: z.string(),
          sourceId: z.string(),
          title: z.string(),
          publishedOn: day,
          officialUrl: z.string(),
          alerts: z.array(
            z
              .object({
                channel: z.string().meta({ description: "inapp, email, chat or webhook" }),
                recipient: person
                  .nullable()
                  .meta({ description: "The member (in-app, email); null for chat and webhooks" }),
                via: z.string().meta({ description: "The alert profile's name, or the webhook subscription's id" }),
                status: z.string(),
                queuedAt: instant,
                sentAt: instant.nullable(),
                readAt: instant.nullable(),
              })
              .strict(),
          ),
          reads: z.array(z.object({ reader: person, firstReadAt: instant, lastReadAt: instant }).strict()),
          triage: z
            .object({
              status: z.string(),
              assigneeUserId: z.string().nullable(),
              assigneeTeamId: z.string().nullable(),
              dueOn: day.nullable(),
              impact: z.string().nullable(),
              rationale: z.string(),
              updatedAt: instant,
            })
            .strict()
            .nullable(),
          decisions: z.array(
            z
              .object({
                at: instant,
                actor: z.object({ id: z.string(), name: z.string() }).strict(),
                changes,
                note: z.string().nullable(),
              })
              .strict(),
          ),
          obligations: z.array(
            z
              .object({
                id: z.uuid(),
                title: z.string(),
                description: z.string(),
                anchor: z.string(),
                excerpt: z.string(),
                ownerUserId: z.string().nullable(),
                ownerTeamId: z.string().nullable(),
                dueOn: day.nullable(),
                status: z.string(),
                reference: z.string(),
                createdBy: z.string(),
                createdAt: instant,
              })
              .strict(),
          ),
          notes: z.array(
            z
              .object({
                id: z.uuid(),
                author: person,
                visibility: z.enum(["private", "group", "organization"]),
                groupId: z.string().nullable(),
                paragraph: z.int().nullable(),
                body: z.string(),
                createdAt: instant,
                updatedAt: instant,
              })
              .strict(),
          ),
        })
        .strict(),
    ),
    lawObligations: z
      .array(
        z
          .object({
            obligation: z
              .object({
                id: z.uuid(),
                title: z.string(),
                description: z.string(),
                status: z.string(),
                ownerUserId: z.string().nullable(),
                ownerTeamId: z.string().nullable(),
                createdBy: z.string(),
                createdAt: instant,
              })
              .strict(),
            anchor: z
              .object({
                lawId: z.string(),
                lawTitle: z.string(),
                blockId: z.string(),
                blockTitle: z.string(),
                version: z.object({ normId: z.string(), publishedOn: z.string() }).strict(),
              })
              .strict(),
            reviews: z.array(
              z
                .object({
                  id: z.uuid(),
                  openedAt: instant,
                  from: versionText,
                  to: versionText,
                  decision: z.enum(["still_applies", "changed", "no_longer_applies"]).nullable(),
                  note: z.string().nullable(),
                  newText: z.string().nullable(),
                  decidedBy: z.object({ id: z.string(), name: z.string() }).strict().nullable(),
                  decidedAt: instant.nullable(),
                })
                .strict(),
            ),
          })
          .strict(),
      )
      .meta({
        description:
          "Obligations anchored to a followed law's article, with their reviews (the version anchored, the new one, the decision, who and when): a document's pack holds those its act re-worded; a period's those created or reviewed in it",
      }),
    audit: z
      .object({
        events: z.array(
          z
            .object({
              id: z.uuid(),
              seq: z.int(),
              at: instant,
              actor: z.object({ id: z.string(), email: z.string() }).strict().nullable(),
              action: z.string(),
              object: z.object({ type: z.string(), id: z.string() }).strict().nullable(),
              hash: z.string().regex(/^[0-9a-f]{64}$/),
              prevHash: z.string().regex(/^[0-9a-f]{64}$/),
            })
            .strict(),
        ),
        verification: z
          .object({
            valid: z.boolean(),
            events: z.int().min(0),
            firstBroken: z.uuid().nullable(),
            reason: z.string().nullable(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

export const getEvidenceOperation = defineOperation({
  method: "get",
  path: "/api/v1/evidence",
  operationId: "getEvidencePack",
  summary: "The evidence pack of one document or a period",
  description:
    "Who received the alert and when (per channel), who opened it, the triage decisions and their authors, obligations, the notes the token's creator may see, and the audit excerpt with the organisation's chain verification. Give `document` (its id, BOE id or CELEX number), or `from` and `to` (at most a year); `format=pdf` gives the pack as a PDF (decisions, obligations, the audit excerpt in words and the chain's verification). Another organisation's document answers 404. Each call is audited (`evidence.exported`). Admin tokens only.",
  tags: ["evidence"],
  scope: "admin",
  query: evidenceQuerySchema,
  responses: {
    200: {
      description: "The evidence pack, or with format=pdf the same pack as a PDF (application/pdf)",
      schema: evidencePackSchema,
      alternatives: { "application/pdf": { schema: z.string().meta({ format: "binary" }) } },
    },
  },
});
