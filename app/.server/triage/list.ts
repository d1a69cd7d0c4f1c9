/**
 * The triage work views: the organisation's list with filters and pagination (/app/triage, GET
 * /api/v1/triage) and "my work" (items and obligations assigned to the user or their groups).
 * Only documents within the organisation's reach are listed.
 */

import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import type { DueSource, ObligationStatus, TriageImpact, TriageStatus } from "../db/schema/triage.ts";
import { reachable } from "../documents/reach.ts";
import { isOverdue, madridDay } from "./due-date.ts";
import type { TriageFilters } from "./filters.ts";
import { groupsOf, namesOf } from "./people.ts";
import type { Assignee } from "./store.ts";

export interface TriageListRow {
  documentId: string;
  sourceId: string;
  title: string;
  publishedOn: string;
  areas: string[];
  status: TriageStatus;
  assignee: Assignee | null;
  dueOn: string | null;
  dueSource: DueSource | null;
  impact: TriageImpact | null;
  overdue: boolean;
  updatedAt: string;
}

export interface TriageListPage {
  items: TriageListRow[];
  total: number;
  page: number;
  pageCount: number;
}

interface RawRow {
  document_id: string;
  source_id: string;
  title: string;
  published_on: string;
  area_ids: string[] | null;
  status: TriageStatus;
  assignee_user_id: string | null;
  assignee_team_id: string | null;
  due_on: string | null;
  due_source: DueSource | null;
  impact: TriageImpact | null;
  updated_at: Date | string;
}

/** "me": the user or one of their groups; the SQL for the item (alias t) or obligation (alias o) columns. */
function assignedTo(userColumn: SQL, teamColumn: SQL, userId: string, groupIds: readonly string[]): SQL {
  const groups = groupIds.length
    ? sql`${teamColumn} in (${sql.join(
        groupIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql`false`;
  return sql`(${userColumn} = ${userId} or ${groups})`;
}

export async function listTriage(
  db: Db,
  viewer: { organizationId: string; userId: string },
  filters: TriageFilters,
  options: { now?: Date; pageSize?: number } = {},
): Promise<TriageListPage> {
  const today = madridDay(options.now ?? new Date());
  const pageSize = options.pageSize ?? 25;
  const where: SQL[] = [sql`t.organization_id = ${viewer.organizationId}`, reachable(viewer.organizationId)];
  if (filters.statuses.length) {
    where.push(
      sql`t.status in (${sql.join(
        filters.statuses.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
  }
  const assignee = filters.assignee;
  if (assignee?.kind === "me") {
    const groups = await groupsOf(db, viewer.organizationId, viewer.userId);
    where.push(assignedTo(sql`t.assignee_user_id`, sql`t.assignee_team_id`, viewer.userId, groups));
  } else if (assignee?.kind === "none") {
    where.push(sql`t.assignee_user_id is null and t.assignee_team_id is null`);
  } else if (assignee?.kind === "user") {
    where.push(sql`t.assignee_user_id = ${assignee.id}`);
  } else if (assignee?.kind === "group") {
    where.push(sql`t.assignee_team_id = ${assignee.id}`);
  }
  if (filters.area) where.push(sql`d.area_ids @> array[${filters.area}]::text[]`);
  if (filters.dueFrom) where.push(sql`t.due_on >= ${filters.dueFrom}::date`);
  if (filters.dueTo) where.push(sql`t.due_on <= ${filters.dueTo}::date`);
  if (filters.overdue) {
    where.push(sql`t.due_on < ${today}::date and t.status not in ('done', 'does_not_apply')`);
  }
  const condition = sql.join(where, sql` and `);
  const [count] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from triage_items t join documents d on d.id = t.document_id where ${condition}`,
  );
  const total = Number(count?.n ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(filters.page, pageCount);
  const found = await rowsOf<RawRow>(
    db,
    sql`select t.document_id, d.source_id, d.title, d.published_on, d.area_ids, t.status, t.assignee_user_id,
      t.assignee_team_id, t.due_on::text as due_on, t.due_source, t.impact, t.updated_at
      from triage_items t join documents d on d.id = t.document_id
      where ${condition}
      order by t.due_on asc nulls last, t.updated_at desc, t.document_id
      limit ${pageSize} offset ${(page - 1) * pageSize}`,
  );
  const names = await namesOf(db, {
    users: found.flatMap((row) => (row.assignee_user_id ? [row.assignee_user_id] : [])),
    groups: found.flatMap((row) => (row.assignee_team_id ? [row.assignee_team_id] : [])),
  });
  const items = found.map((row) => {
    const assigneeView: Assignee | null = row.assignee_user_id
      ? { type: "user", id: row.assignee_user_id, name: names.users.get(row.assignee_user_id)?.name ?? "—" }
      : row.assignee_team_id
        ? { type: "group", id: row.assignee_team_id, name: names.groups.get(row.assignee_team_id) ?? "—" }
        : null;
    return {
      documentId: row.document_id,
      sourceId: row.source_id,
      title: row.title,
      publishedOn: row.published_on,
      areas: row.area_ids ?? [],
      status: row.status,
      assignee: assigneeView,
      dueOn: row.due_on,
      dueSource: row.due_source,
      impact: row.impact,
      overdue: isOverdue({ status: row.status, dueOn: row.due_on }, today),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  });
  return { items, total, page, pageCount };
}

export interface WorkItem {
  kind: "triage" | "obligation";
  /** The obligation's id, or the document's for a triage item. */
  id: string;
  documentId: string;
  title: string;
  /** The document's title (an obligation's own title is `title`). */
  documentTitle: string;
  status: TriageStatus | ObligationStatus;
  dueOn: string | null;
  overdue: boolean;
  viaGroup: string | null;
}

/** Open items and obligations assigned to the user or to one of their groups, soonest due first. */
export async function myWork(
  db: Db,
  viewer: { organizationId: string; userId: string },
  options: { now?: Date; limit?: number } = {},
): Promise<WorkItem[]> {
  const today = madridDay(options.now ?? new Date());
  const limit = options.limit ?? 50;
  const groups = await groupsOf(db, viewer.organizationId, viewer.userId);
  const org = viewer.organizationId;
  const found = await rowsOf<{
    kind: "triage" | "obligation";
    id: string;
    document_id: string;
    title: string;
    document_title: string;
    status: string;
    due_on: string | null;
    team_id: string | null;
  }>(
    db,
    sql`(select 'triage' as kind, t.document_id::text as id, t.document_id, d.title, d.title as document_title, t.status,
        t.due_on::text as due_on, t.assignee_team_id as team_id
      from triage_items t join documents d on d.id = t.document_id
      where t.organization_id = ${org} and ${reachable(org)}
        and t.status not in ('done', 'does_not_apply')
        and ${assignedTo(sql`t.assignee_user_id`, sql`t.assignee_team_id`, viewer.userId, groups)})
    union all
    (select 'obligation' as kind, o.id::text as id, o.document_id, o.title, d.title as document_title, o.status,
        o.due_on::text as due_on, o.owner_team_id as team_id
      from obligations o join documents d on d.id = o.document_id
      where o.organization_id = ${org} and ${reachable(org)}
        and o.status in ('open', 'in_progress')
        and ${assignedTo(sql`o.owner_user_id`, sql`o.owner_team_id`, viewer.userId, groups)})
    order by due_on asc nulls last, id
    limit ${limit}`,
  );
  const names = await namesOf(db, { users: [], groups: found.flatMap((row) => (row.team_id ? [row.team_id] : [])) });
  return found.map((row) => ({
    kind: row.kind,
    id: row.id,
    documentId: row.document_id,
    title: row.title,
    documentTitle: row.document_title,
    status: row.status as TriageStatus | ObligationStatus,
    dueOn: row.due_on,
    overdue:
      row.kind === "triage"
        ? isOverdue({ status: row.status, dueOn: row.due_on }, today)
        : row.due_on !== null && row.due_on < today,
    viaGroup: row.team_id ? (names.groups.get(row.team_id) ?? null) : null,
  }));
}
