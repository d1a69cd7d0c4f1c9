/**
 * Exports of the trail (the API's GET /api/v1/audit and the admin page): JSON pages or every
 * matching event as CSV, each export itself recorded as an `audit.exported` event.
 */
import type { Executor } from "./executor.ts";
import { type AuditFilters, auditEventsToCsv, auditEventToJson, listAuditEvents, maxAuditPageSize } from "./query.ts";
import { recordAudit } from "./record.ts";
import type { AuditEvent, AuditEventInput, AuditEventJson } from "./types.ts";

/** A CSV export stops here; narrow the dates for more. */
export const maxCsvEvents = 100_000;

export interface ExportRequest {
  organizationId: string;
  filters: AuditFilters;
  /** Who exports, for the audit.exported event. */
  by: Pick<AuditEventInput, "actor" | "ip" | "userAgent"> & { detail?: Record<string, unknown> };
}

export async function exportAuditJson(
  db: Executor,
  request: ExportRequest,
): Promise<{ items: AuditEventJson[]; nextCursor: string | null }> {
  const page = await listAuditEvents(db, request.organizationId, request.filters);
  await recordExport(db, request, "json", page.items.length);
  return { items: page.items.map(auditEventToJson), nextCursor: page.nextCursor };
}

export async function exportAuditCsv(db: Executor, request: ExportRequest): Promise<{ csv: string; events: number }> {
  const events: AuditEvent[] = [];
  let cursor: string | undefined = request.filters.cursor;
  do {
    const page = await listAuditEvents(db, request.organizationId, {
      ...request.filters,
      limit: maxAuditPageSize,
      cursor,
    });
    events.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && events.length < maxCsvEvents);
  const kept = events.slice(0, maxCsvEvents);
  await recordExport(db, request, "csv", kept.length);
  return { csv: auditEventsToCsv(kept), events: kept.length };
}

async function recordExport(db: Executor, request: ExportRequest, format: "json" | "csv", count: number) {
  const { limit: _limit, cursor: _cursor, ...filters } = request.filters;
  await recordAudit(db, {
    organizationId: request.organizationId,
    actor: request.by.actor,
    action: "audit.exported",
    object: { type: "audit_trail", id: request.organizationId },
    ip: request.by.ip,
    userAgent: request.by.userAgent,
    detail: {
      ...request.by.detail,
      format,
      events: count,
      filters: Object.fromEntries(
        Object.entries(filters)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
      ),
    },
  });
}
