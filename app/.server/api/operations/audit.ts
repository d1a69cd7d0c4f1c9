/** The audit trail over the API (admin scope): list or export events, verify the chain. */
import { z } from "zod";
import { calendarDate } from "../../../lib/calendar-date.ts";
import { defineOperation } from "../registry.ts";

const day = calendarDate();
const instant = z.iso.datetime({ offset: true });

export const auditQuerySchema = z.object({
  from: z
    .union([day, instant])
    .optional()
    .meta({ description: "Events at or after this time (a date means its start, UTC)" }),
  to: z
    .union([day, instant])
    .optional()
    .meta({ description: "Events before this time (a date includes that whole day, UTC)" }),
  actor: z.string().min(1).max(320).optional().meta({ description: "The acting user's id or email" }),
  action: z
    .string()
    .max(100)
    .regex(/^[a-z][a-z0-9_]*(\.([a-z][a-z0-9_]*|\*))+$/)
    .optional()
    .meta({ description: "An action (`member.invited`) or every action of a noun (`member.*`)" }),
  objectType: z.string().min(1).max(100).optional().meta({ description: "The object's type (`user`, `document`…)" }),
  objectId: z.string().min(1).max(200).optional().meta({ description: "The object's id" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(50)
    .meta({ description: "Events per page (JSON only; CSV holds every match)" }),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/)
    .optional()
    .meta({ description: "nextCursor of the previous page" }),
  format: z.enum(["json", "csv"]).default("json").meta({ description: "json (paginated) or csv (a download)" }),
});

export const auditEventSchema = z
  .object({
    id: z.uuid(),
    at: z.iso.datetime(),
    actor: z.object({ id: z.string(), email: z.string() }).nullable(),
    action: z.string(),
    object: z.object({ type: z.string(), id: z.string() }).nullable(),
    ipHash: z.string().nullable(),
    userAgent: z.string().nullable(),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    prevHash: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();

export const auditPageSchema = z
  .object({ items: z.array(auditEventSchema), nextCursor: z.string().nullable() })
  .strict();

export const auditVerificationSchema = z
  .object({
    valid: z.boolean(),
    events: z.int().min(0),
    firstBroken: z.uuid().nullable(),
    /** Why it is not valid (deleted newest events, a forged purge anchor…); null when valid. */
    reason: z.string().nullable(),
  })
  .strict();

export const listAuditOperation = defineOperation({
  method: "get",
  path: "/api/v1/audit",
  operationId: "listAuditEvents",
  summary: "The organisation's audit events, newest first, as JSON pages or a CSV download",
  tags: ["audit"],
  scope: "admin",
  query: auditQuerySchema,
  responses: {
    200: {
      description: "A page of events, or with format=csv every matching event (formula-safe CSV)",
      schema: auditPageSchema,
      alternatives: { "text/csv": { schema: z.string() } },
    },
  },
});

export const verifyAuditOperation = defineOperation({
  method: "get",
  path: "/api/v1/audit/verify",
  operationId: "verifyAuditChain",
  summary: "Recompute the organisation's hash chain and name the first broken event",
  tags: ["audit"],
  scope: "admin",
  responses: { 200: { description: "The chain's state", schema: auditVerificationSchema } },
});

/** The query's dates as the filter's instants: `to` as a date includes that whole day. */
export function auditFiltersFromQuery(query: z.output<typeof auditQuerySchema>) {
  const instantOf = (value: string) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  const to = query.to ? instantOf(query.to) : undefined;
  if (to && query.to?.length === 10) to.setUTCDate(to.getUTCDate() + 1);
  return {
    from: query.from ? instantOf(query.from) : undefined,
    to,
    actor: query.actor,
    action: query.action,
    objectType: query.objectType,
    objectId: query.objectId,
    limit: query.limit,
    cursor: query.cursor,
  };
}
