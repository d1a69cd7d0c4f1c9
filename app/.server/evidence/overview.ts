/**
 * The overview's figures (issue 26), one query per chart, every one scoped to the organisation
 * and through the reach rule: new relevant documents per (effective) area and week, triage status
 * and overdue items per assigned group, and days from publication to the first decision
 * ("applies" / "does not apply") in bands. Filters: a date range, an area, a group.
 */
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { fill } from "../../components/app/messages.ts";
import { evidence as en } from "../../i18n/en/evidence.ts";
import { evidence as es } from "../../i18n/es/evidence.ts";
import type { Locale } from "../../i18n/locales.ts";
import { calendarDate } from "../../lib/calendar-date.ts";
import { areaIds } from "../../lib/taxonomy.ts";
import type { Database } from "../db/client.ts";
import { reachable } from "../documents/reach.ts";

export const triageStatuses = ["new", "under_review", "applies", "does_not_apply", "in_progress", "done"] as const;
export type TriageStatus = (typeof triageStatuses)[number];

/** Upper bounds (days, inclusive) of the decision-time bands; the last band is open. */
export const decisionBands = [7, 14, 30, 60, 90] as const;

export interface OverviewFilters {
  from: string;
  to: string;
  area: string | null;
  group: string | null;
}

export interface OverviewData {
  filters: OverviewFilters;
  perArea: { weeks: string[]; areas: { area: string; counts: number[]; total: number }[] };
  triage: { groups: { group: string | null; counts: Record<TriageStatus, number>; overdue: number; total: number }[] };
  decision: { bands: number[]; count: number; medianDays: number | null };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Monday of the week of `date` (UTC). */
export function weekStart(value: string): string {
  const date = new Date(`${value}T00:00:00Z`);
  const offset = (date.getUTCDay() + 6) % 7;
  date.setUTCDate(date.getUTCDate() - offset);
  return day(date);
}

/** Every Monday from the week of `from` to the week of `to`. */
export function weeksBetween(from: string, to: string): string[] {
  const weeks: string[] = [];
  const date = new Date(`${weekStart(from)}T00:00:00Z`);
  const end = weekStart(to);
  while (day(date) <= end && weeks.length < 60) {
    weeks.push(day(date));
    date.setUTCDate(date.getUTCDate() + 7);
  }
  return weeks;
}

/** The default range: the last twelve weeks, to today. */
export function defaultRange(now: Date): { from: string; to: string } {
  const from = new Date(`${weekStart(day(now))}T00:00:00Z`);
  from.setUTCDate(from.getUTCDate() - 7 * 11);
  return { from: day(from), to: day(now) };
}

export function overviewFilterSchema(locale: Locale, groupIds: readonly string[], now: Date) {
  const t = (locale === "en" ? en : es).overview;
  const range = defaultRange(now);
  return z
    .object({
      from: calendarDate({ error: t.badDate }).default(range.from),
      to: calendarDate({ error: t.badDate }).default(range.to),
      area: z
        .string()
        .refine((value) => (areaIds as readonly string[]).includes(value), { message: t.unknownArea })
        .optional(),
      group: z
        .string()
        .refine((value) => groupIds.includes(value), { message: t.unknownGroup })
        .optional(),
    })
    .superRefine((value, ctx) => {
      const days = (Date.parse(value.to) - Date.parse(value.from)) / 86_400_000;
      if (days < 0) ctx.addIssue({ code: "custom", path: ["to"], message: t.badRange });
      else if (days > 366) ctx.addIssue({ code: "custom", path: ["to"], message: t.rangeTooLong });
    })
    .transform((value): OverviewFilters => ({ ...value, area: value.area ?? null, group: value.group ?? null }));
}

export type FilterParse =
  | { ok: true; filters: OverviewFilters }
  | { ok: false; message: string; fieldErrors: Record<string, string[]>; filters: OverviewFilters };

/** Filters from the GET form (empty fields are absent); on errors, the defaults and the errors. */
export function parseOverviewFilters(
  params: URLSearchParams,
  locale: Locale,
  groupIds: readonly string[],
  now: Date = new Date(),
): FilterParse {
  const input: Record<string, string> = {};
  for (const key of ["from", "to", "area", "group"]) {
    const value = params.get(key)?.trim();
    if (value) input[key] = value;
  }
  const schema = overviewFilterSchema(locale, groupIds, now);
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, filters: parsed.data };
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join(".") || "from";
    fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
  }
  const t = (locale === "en" ? en : es).overview;
  return {
    ok: false,
    message: fill(t.invalid, { details: Object.values(fieldErrors).flat().join(" ") }),
    fieldErrors,
    filters: schema.parse({}),
  };
}

/** The organisation's areas of document `d` (stored labels, less its "remove" corrections, plus its "add" ones). */
function effectiveAreas(organizationId: string): SQL {
  return sql`(select a from unnest(d.area_ids) a
      where not exists (select 1 from area_corrections c where c.organization_id = ${organizationId}
        and c.document_id = d.id and c.action = 'remove' and c.area = a)
    union
    select c.area from area_corrections c where c.organization_id = ${organizationId}
      and c.document_id = d.id and c.action = 'add')`;
}

async function perArea(database: Database, organizationId: string, filters: OverviewFilters) {
  const rows = await database.rows<{ area: string; week: string; n: number | string }>(sql`
    select eff.area, to_char(date_trunc('week', d.published_on::date), 'YYYY-MM-DD') as week, count(*) as n
    from documents d
    cross join lateral ${effectiveAreas(organizationId)} as eff(area)
    where ${reachable(organizationId)}
      and d.relevance in ('high', 'medium')
      and d.published_on >= ${filters.from} and d.published_on <= ${filters.to}
      ${filters.area ? sql`and eff.area = ${filters.area}` : sql``}
      ${
        filters.group
          ? sql`and exists (select 1 from alert_matches m join alert_profiles p on p.id = m.profile_id
              where m.document_id = d.id and p.organization_id = ${organizationId} and p.group_id = ${filters.group})`
          : sql``
      }
    group by 1, 2`);
  const weeks = weeksBetween(filters.from, filters.to);
  const index = new Map(weeks.map((week, i) => [week, i]));
  const byArea = new Map<string, number[]>();
  for (const row of rows) {
    const i = index.get(row.week);
    if (i === undefined) continue;
    const counts = byArea.get(row.area) ?? weeks.map(() => 0);
    counts[i] = (counts[i] ?? 0) + Number(row.n);
    byArea.set(row.area, counts);
  }
  const areas = [...byArea.entries()]
    .map(([area, counts]) => ({ area, counts, total: counts.reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.total - a.total || a.area.localeCompare(b.area));
  return { weeks, areas };
}

/** Triage items of the organisation within the filters (alias ti, joined to documents d). */
function triageFilter(organizationId: string, filters: OverviewFilters): SQL {
  return sql`ti.organization_id = ${organizationId} and ${reachable(organizationId)}
    ${filters.group ? sql`and ti.assignee_team_id = ${filters.group}` : sql``}
    ${filters.area ? sql`and ${filters.area} in ${effectiveAreas(organizationId)}` : sql``}`;
}

async function triage(database: Database, organizationId: string, filters: OverviewFilters, today: string) {
  const rows = await database.rows<{
    team: string | null;
    status: TriageStatus;
    n: number | string;
    overdue: number | string;
  }>(sql`
    select ti.assignee_team_id as team, ti.status, count(*) as n,
      count(*) filter (where ti.due_on < ${today}::date and ti.status not in ('done', 'does_not_apply')) as overdue
    from triage_items ti join documents d on d.id = ti.document_id
    where ${triageFilter(organizationId, filters)}
      and ti.created_at >= ${`${filters.from}T00:00:00Z`}::timestamptz
      and ti.created_at < (${filters.to}::date + 1)::timestamptz
    group by 1, 2`);
  const groups = new Map<string | null, OverviewData["triage"]["groups"][number]>();
  for (const row of rows) {
    const entry = groups.get(row.team) ?? {
      group: row.team,
      counts: Object.fromEntries(triageStatuses.map((s) => [s, 0])) as Record<TriageStatus, number>,
      overdue: 0,
      total: 0,
    };
    if ((triageStatuses as readonly string[]).includes(row.status)) entry.counts[row.status] += Number(row.n);
    entry.overdue += Number(row.overdue);
    entry.total += Number(row.n);
    groups.set(row.team, entry);
  }
  return {
    groups: [...groups.values()].sort((a, b) => b.total - a.total || String(a.group).localeCompare(String(b.group))),
  };
}

async function decision(database: Database, organizationId: string, filters: OverviewFilters) {
  const rows = await database.rows<{ days: number | string }>(sql`
    select (first.at::date - d.published_on::date) as days
    from triage_items ti
    join documents d on d.id = ti.document_id
    cross join lateral (select h.at from triage_history h
      where h.organization_id = ti.organization_id and h.document_id = ti.document_id
        and h.changes->'status'->>'to' in ('applies', 'does_not_apply')
      order by h.at limit 1) first
    where ${triageFilter(organizationId, filters)}
      and first.at >= ${`${filters.from}T00:00:00Z`}::timestamptz
      and first.at < (${filters.to}::date + 1)::timestamptz`);
  const days = rows.map((row) => Math.max(0, Number(row.days))).sort((a, b) => a - b);
  const bands = [...decisionBands.map(() => 0), 0];
  for (const value of days) {
    const i = decisionBands.findIndex((limit) => value <= limit);
    bands[i === -1 ? decisionBands.length : i] = (bands[i === -1 ? decisionBands.length : i] ?? 0) + 1;
  }
  const mid = Math.floor(days.length / 2);
  const medianDays =
    days.length === 0 ? null : days.length % 2 ? (days[mid] ?? 0) : ((days[mid - 1] ?? 0) + (days[mid] ?? 0)) / 2;
  return { bands, count: days.length, medianDays };
}

export async function overviewData(
  database: Database,
  organizationId: string,
  filters: OverviewFilters,
  now: Date = new Date(),
): Promise<OverviewData> {
  const [areas, status, decided] = await Promise.all([
    perArea(database, organizationId, filters),
    triage(database, organizationId, filters, day(now)),
    decision(database, organizationId, filters),
  ]);
  return { filters, perArea: areas, triage: status, decision: decided };
}
