/** Reading the trail: filtered, newest first, cursor-paginated; JSON (the contract's shape) and CSV. */
import { and, desc, eq, gte, like, lt, or, type SQL, sql } from "drizzle-orm";
import { csvDocument } from "../../lib/csv.ts";
import { auditEvents } from "../db/schema/audit.ts";
import type { Executor } from "./executor.ts";
import { rowToEvent } from "./record.ts";
import type { AuditEvent, AuditEventJson } from "./types.ts";

export interface AuditFilters {
  /** Events at or after this time. */
  from?: Date | undefined;
  /** Events before this time (exclusive). */
  to?: Date | undefined;
  /** The actor's user id or email (case-insensitive). */
  actor?: string | undefined;
  /** An exact action (`member.invited`) or every action of a noun (`member.*`). */
  action?: string | undefined;
  objectType?: string | undefined;
  objectId?: string | undefined;
  /** Page size: default 50, at most 1000. */
  limit?: number | undefined;
  /** nextCursor of the previous page. */
  cursor?: string | undefined;
}

export interface AuditPage {
  items: AuditEvent[];
  nextCursor: string | null;
}

export const defaultAuditPageSize = 50;
export const maxAuditPageSize = 1000;

export class InvalidCursorError extends Error {
  override name = "InvalidCursorError";
}

export async function listAuditEvents(
  db: Executor,
  organizationId: string,
  filters: AuditFilters = {},
): Promise<AuditPage> {
  const limit = Math.min(Math.max(Math.trunc(filters.limit ?? defaultAuditPageSize), 1), maxAuditPageSize);
  const conditions: (SQL | undefined)[] = [eq(auditEvents.organizationId, organizationId)];
  if (filters.from) conditions.push(gte(auditEvents.at, filters.from));
  if (filters.to) conditions.push(lt(auditEvents.at, filters.to));
  if (filters.actor) {
    conditions.push(
      or(
        eq(auditEvents.actorId, filters.actor),
        eq(sql`lower(${auditEvents.actorEmail})`, filters.actor.toLowerCase()),
      ),
    );
  }
  if (filters.action) {
    conditions.push(
      filters.action.endsWith(".*")
        ? like(auditEvents.action, `${filters.action.slice(0, -1).replace(/[\\%_]/g, "\\$&")}%`)
        : eq(auditEvents.action, filters.action),
    );
  }
  if (filters.objectType) conditions.push(eq(auditEvents.objectType, filters.objectType));
  if (filters.objectId) conditions.push(eq(auditEvents.objectId, filters.objectId));
  if (filters.cursor) conditions.push(lt(auditEvents.seq, decodeCursor(filters.cursor)));
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(desc(auditEvents.seq))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map(rowToEvent);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
}

export function encodeCursor(seq: number): string {
  return Buffer.from(`s${seq}`).toString("base64url");
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^s(\d{1,15})$/.exec(text);
  if (!match?.[1]) throw new InvalidCursorError("invalid cursor");
  return Number(match[1]);
}

export function auditEventToJson(event: AuditEvent): AuditEventJson {
  return {
    id: event.id,
    at: event.at.toISOString(),
    actor: event.actor,
    action: event.action,
    object: event.object,
    ipHash: event.ipHash,
    userAgent: event.userAgent,
    hash: event.hash,
    prevHash: event.prevHash,
  };
}

export const auditCsvColumns = [
  "id",
  "at",
  "actor_id",
  "actor_email",
  "action",
  "object_type",
  "object_id",
  "ip_hash",
  "user_agent",
  "hash",
  "prev_hash",
] as const;

/** CSV of events (either shape), formula-safe. */
export function auditEventsToCsv(events: readonly (AuditEvent | AuditEventJson)[]): string {
  return csvDocument(
    auditCsvColumns,
    events.map((event) => [
      event.id,
      event.at,
      event.actor?.id,
      event.actor?.email,
      event.action,
      event.object?.type,
      event.object?.id,
      event.ipHash,
      event.userAgent,
      event.hash,
      event.prevHash,
    ]),
  );
}
