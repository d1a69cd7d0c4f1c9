/**
 * The triage list's filters, read from a query string (the page's no-JS form and the API use the
 * same names): status (repeatable), assignee (`me`, `none`, `user:<id>`, `group:<id>`), area,
 * due_from / due_to (YYYY-MM-DD), overdue (1/true), page. Unknown values are dropped, not errors:
 * a shared link with a stale filter still opens the list. Pure: tested on its own.
 */

import { parseCalendarDate } from "../../lib/calendar-date.ts";
import { type AreaId, areaIds } from "../../lib/taxonomy.ts";
import { type TriageStatus, triageStatuses } from "../db/schema/triage.ts";

export type AssigneeFilter =
  | { kind: "me" }
  | { kind: "none" }
  | { kind: "user"; id: string }
  | { kind: "group"; id: string };

export interface TriageFilters {
  statuses: TriageStatus[];
  assignee: AssigneeFilter | null;
  area: AreaId | null;
  dueFrom: string | null;
  dueTo: string | null;
  overdue: boolean;
  page: number;
}

const idPattern = /^[A-Za-z0-9_-]{1,100}$/;

function day(value: string | null): string | null {
  return parseCalendarDate(value) ?? null;
}

export function parseAssignee(value: string | null): AssigneeFilter | null {
  if (!value) return null;
  if (value === "me") return { kind: "me" };
  if (value === "none") return { kind: "none" };
  const [kind, id] = [value.slice(0, value.indexOf(":")), value.slice(value.indexOf(":") + 1)];
  if ((kind === "user" || kind === "group") && idPattern.test(id)) return { kind, id };
  return null;
}

export function assigneeParam(filter: AssigneeFilter | null): string {
  if (!filter) return "";
  return filter.kind === "user" || filter.kind === "group" ? `${filter.kind}:${filter.id}` : filter.kind;
}

export function parseTriageFilters(params: URLSearchParams): TriageFilters {
  const statuses = [
    ...new Set(
      params
        .getAll("status")
        .flatMap((value) => value.split(","))
        .filter((value): value is TriageStatus => (triageStatuses as readonly string[]).includes(value)),
    ),
  ];
  const area = params.get("area");
  const page = Number(params.get("page") ?? "1");
  const overdue = params.get("overdue");
  let dueFrom = day(params.get("due_from"));
  let dueTo = day(params.get("due_to"));
  // A reversed range is read as meant.
  if (dueFrom && dueTo && dueFrom > dueTo) [dueFrom, dueTo] = [dueTo, dueFrom];
  return {
    statuses,
    assignee: parseAssignee(params.get("assignee")),
    area: area && (areaIds as readonly string[]).includes(area) ? (area as AreaId) : null,
    dueFrom,
    dueTo,
    overdue: overdue === "1" || overdue === "true" || overdue === "on",
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

/** The query string of the filters (links to other pages keep them). */
export function triageFiltersQuery(filters: TriageFilters, page = filters.page): string {
  const params = new URLSearchParams();
  for (const status of filters.statuses) params.append("status", status);
  if (filters.assignee) params.set("assignee", assigneeParam(filters.assignee));
  if (filters.area) params.set("area", filters.area);
  if (filters.dueFrom) params.set("due_from", filters.dueFrom);
  if (filters.dueTo) params.set("due_to", filters.dueTo);
  if (filters.overdue) params.set("overdue", "1");
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return text ? `?${text}` : "";
}
