/** The audit page's query string (from, to, actor, action, cursor) as AuditFilters; bad values are dropped. */

import { isCalendarDate } from "../../lib/calendar-date.ts";
import type { AuditFilters } from "../audit/query.ts";

function day(value: string | null, endOfDay: boolean): Date | undefined {
  if (!isCalendarDate(value)) return undefined;
  const date = new Date(`${value}T00:00:00.000Z`);
  return endOfDay ? new Date(date.getTime() + 86_400_000) : date;
}

export function auditFiltersFrom(params: URLSearchParams): AuditFilters & { raw: Record<string, string> } {
  const text = (name: string) => params.get(name)?.trim().slice(0, 200) || undefined;
  const action = text("action");
  return {
    from: day(params.get("from"), false),
    to: day(params.get("to"), true),
    actor: text("actor"),
    action: action && /^[a-z_.*]+$/.test(action) ? action : undefined,
    cursor: text("cursor"),
    limit: 50,
    raw: {
      from: params.get("from") ?? "",
      to: params.get("to") ?? "",
      actor: params.get("actor") ?? "",
      action: params.get("action") ?? "",
    },
  };
}
