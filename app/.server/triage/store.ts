/**
 * Triage state per organisation and document (issue 26): started as "new" when an alert brings a
 * document to an organisation, changed by its members (page, bulk actions, API). Every change
 * is kept in triage_history, audited (`triage.updated`) and sent as a `document.triaged` webhook
 * event, in one transaction. The reach rule holds: a document outside the organisation's reach
 * is "not found" here as everywhere.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { calendarDate } from "../../lib/calendar-date.ts";
import type { Executor } from "../audit/executor.ts";
import { recordAudit } from "../audit/record.ts";
import type { Db } from "../db/client.ts";
import {
  type ChangeSet,
  type DueSource,
  type TriageImpact,
  type TriageStatus,
  triageHistory,
  triageImpacts,
  triageItems,
  triageStatuses,
} from "../db/schema/triage.ts";
import { reachable } from "../documents/reach.ts";
import { isOverdue, madridDay, proposeDueDate } from "./due-date.ts";
import { type Lang, triageText } from "./messages.ts";
import { isGroupOf, isMemberOf, namesOf } from "./people.ts";
import { queueTriageWebhookEvent } from "./webhook-events.ts";

export interface TriageActor {
  organizationId: string;
  userId: string;
  name: string;
  email: string;
  ip?: string | undefined;
  userAgent?: string | undefined;
  /** Set when an API token made the change (named in the audit detail). */
  tokenId?: string | undefined;
}

const isoDay = calendarDate();

/**
 * A member or a group of the organisation, as a request names one (decision 0123): the contract's
 * `{ "userId" }` or `{ "groupId" }`, or the `{ "type", "id" }` the API first shipped (still read,
 * marked deprecated in the OpenAPI description). Parsed to `{ type, id }`; answers add `name`.
 */
export function memberOrGroupInput(message: string) {
  const id = z.string().min(1).max(100);
  return z
    .union(
      [
        z.object({ userId: id }).strict().meta({ title: "Member", description: "A member: their user id" }),
        z.object({ groupId: id }).strict().meta({ title: "Group", description: "A group: its id" }),
        z
          .object({ type: z.enum(["user", "group"]), id })
          .strict()
          .meta({
            title: "TypedAssignee",
            description: "Deprecated: the first form; use userId or groupId",
            deprecated: true,
          }),
      ],
      { error: message },
    )
    .transform((value): { type: "user" | "group"; id: string } =>
      "userId" in value
        ? { type: "user", id: value.userId }
        : "groupId" in value
          ? { type: "group", id: value.groupId }
          : value,
    );
}

/** One change of a triage item, as the API's JSON body (the page's form is turned into this). */
export function triagePatchSchema(lang: Lang) {
  const t = triageText[lang];
  return z
    .object({
      status: z.enum(triageStatuses, { error: t.status }).optional(),
      assignee: memberOrGroupInput(t.assignee)
        .nullable()
        .optional()
        .meta({ description: "A member or a group of your organisation; null unassigns" }),
      dueOn: isoDay.nullable().optional().meta({ description: "YYYY-MM-DD; null clears the due date" }),
      impact: z.enum(triageImpacts, { error: t.impact }).nullable().optional(),
      rationale: z.string({ error: t.rationale }).max(2000, t.rationale).optional(),
      note: z.string({ error: t.note }).max(500, t.note).optional().meta({ description: "Kept in the history" }),
    })
    .strict();
}
export type TriagePatch = z.output<ReturnType<typeof triagePatchSchema>>;

export interface Assignee {
  type: "user" | "group";
  id: string;
  name: string;
}

export interface TriageView {
  documentId: string;
  status: TriageStatus;
  assignee: Assignee | null;
  dueOn: string | null;
  dueSource: DueSource | null;
  impact: TriageImpact | null;
  rationale: string;
  overdue: boolean;
  updatedAt: string;
  updatedBy: string | null;
}

export interface HistoryEntry {
  id: number;
  at: string;
  actor: { id: string; name: string };
  changes: ChangeSet;
  note: string | null;
}

type ItemRow = typeof triageItems.$inferSelect;

async function viewsOf(db: Executor, rows: readonly ItemRow[], today: string): Promise<TriageView[]> {
  const names = await namesOf(db, {
    users: rows.flatMap((row) => (row.assigneeUserId ? [row.assigneeUserId] : [])),
    groups: rows.flatMap((row) => (row.assigneeTeamId ? [row.assigneeTeamId] : [])),
  });
  return rows.map((row) => ({
    documentId: row.documentId,
    status: row.status,
    assignee: row.assigneeUserId
      ? { type: "user", id: row.assigneeUserId, name: names.users.get(row.assigneeUserId)?.name ?? "—" }
      : row.assigneeTeamId
        ? { type: "group", id: row.assigneeTeamId, name: names.groups.get(row.assigneeTeamId) ?? "—" }
        : null,
    dueOn: row.dueOn,
    dueSource: row.dueSource,
    impact: row.impact,
    rationale: row.rationale,
    overdue: isOverdue(row, today),
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  }));
}

/** The organisation's document (within its reach) with the dates a due date is proposed from. */
async function reachableDocument(db: Executor, organizationId: string, documentId: string) {
  if (!z.uuid().safeParse(documentId).success) return undefined;
  const result = (await db.execute(sql`select d.id, d.source_id, d.title, d.effective_dates from documents d
    where d.id = ${documentId}::uuid and ${reachable(organizationId)}`)) as unknown as {
    rows: { id: string; source_id: string; title: string; effective_dates: string[] | null }[];
  };
  return result.rows[0];
}

/**
 * Alert matching's hook: the organisations an alert just brought `document` to get its triage
 * item as "new", due date proposed (in the matching transaction; an existing item is left alone).
 */
export async function startTriage(
  tx: Executor,
  document: { id: string; effectiveDates?: unknown },
  organizationIds: readonly string[],
  now = new Date(),
): Promise<number> {
  const orgs = [...new Set(organizationIds)];
  if (orgs.length === 0 || !z.uuid().safeParse(document.id).success) return 0;
  // Matching also runs on documents loaded from elsewhere (tests' in-memory loaders): no stored row, no triage.
  const stored = (await tx.execute(sql`select 1 from documents where id = ${document.id}::uuid`)) as unknown as {
    rows: unknown[];
  };
  if (stored.rows.length === 0) return 0;
  const dates = Array.isArray(document.effectiveDates) ? (document.effectiveDates as string[]) : [];
  const proposal = proposeDueDate(dates, madridDay(now));
  const inserted = await tx
    .insert(triageItems)
    .values(
      orgs.map((organizationId) => ({
        organizationId,
        documentId: document.id,
        dueOn: proposal?.dueOn ?? null,
        dueSource: proposal?.dueSource ?? null,
        updatedBy: "system",
      })),
    )
    .onConflictDoNothing()
    .returning({ organizationId: triageItems.organizationId });
  if (inserted.length > 0) {
    const changes: ChangeSet = { status: { from: null, to: "new" } };
    if (proposal) changes.dueOn = { from: null, to: proposal.dueOn };
    await tx.insert(triageHistory).values(
      inserted.map((row) => ({
        organizationId: row.organizationId,
        documentId: document.id,
        actorUserId: "system",
        actorName: "system",
        changes,
        note: "alert",
      })),
    );
  }
  return inserted.length;
}

/** The organisation's triage item of a document: null when none yet; undefined outside its reach. */
export async function getTriage(
  db: Db,
  organizationId: string,
  documentId: string,
  now = new Date(),
): Promise<TriageView | null | undefined> {
  if (!(await reachableDocument(db, organizationId, documentId))) return undefined;
  const [row] = await db
    .select()
    .from(triageItems)
    .where(and(eq(triageItems.organizationId, organizationId), eq(triageItems.documentId, documentId)));
  if (!row) return null;
  return (await viewsOf(db, [row], madridDay(now)))[0]!;
}

/** What a document not yet triaged starts with (the page's form defaults). */
export async function proposedTriage(db: Db, organizationId: string, documentId: string, now = new Date()) {
  const doc = await reachableDocument(db, organizationId, documentId);
  return proposeDueDate(doc?.effective_dates ?? [], madridDay(now));
}

export async function triageHistoryOf(db: Db, organizationId: string, documentId: string): Promise<HistoryEntry[]> {
  const rows = await db
    .select()
    .from(triageHistory)
    .where(and(eq(triageHistory.organizationId, organizationId), eq(triageHistory.documentId, documentId)))
    .orderBy(asc(triageHistory.at), asc(triageHistory.id));
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    actor: { id: row.actorUserId, name: row.actorName },
    changes: row.changes,
    note: row.note,
  }));
}

export type TriageOutcome =
  | { ok: true; item: TriageView; changes: ChangeSet }
  | { ok: false; error: "not_found" }
  | { ok: false; error: "field"; errors: Record<string, string[]> };

/** One member's change of one item (created as "new" first when the document has none), audited. */
export async function updateTriage(
  db: Db,
  actor: TriageActor,
  documentId: string,
  patch: TriagePatch,
  lang: Lang,
  now = new Date(),
): Promise<TriageOutcome> {
  const t = triageText[lang];
  const today = madridDay(now);
  if (patch.assignee) {
    const ok =
      patch.assignee.type === "user"
        ? await isMemberOf(db, actor.organizationId, patch.assignee.id)
        : await isGroupOf(db, actor.organizationId, patch.assignee.id);
    if (!ok) return { ok: false, error: "field", errors: { assignee: [t.assignee] } };
  }
  return db.transaction(async (tx) => {
    const doc = await reachableDocument(tx, actor.organizationId, documentId);
    if (!doc) return { ok: false, error: "not_found" } as const;
    const key = and(eq(triageItems.organizationId, actor.organizationId), eq(triageItems.documentId, documentId));
    let [before] = await tx.select().from(triageItems).where(key).for("update");
    if (!before) {
      const proposal = proposeDueDate(doc.effective_dates ?? [], today);
      [before] = await tx
        .insert(triageItems)
        .values({
          organizationId: actor.organizationId,
          documentId,
          dueOn: proposal?.dueOn ?? null,
          dueSource: proposal?.dueSource ?? null,
          updatedBy: actor.userId,
        })
        .returning();
    }
    const current = before!;
    const next = { ...current };
    if (patch.status !== undefined) next.status = patch.status;
    if (patch.assignee !== undefined) {
      next.assigneeUserId = patch.assignee?.type === "user" ? patch.assignee.id : null;
      next.assigneeTeamId = patch.assignee?.type === "group" ? patch.assignee.id : null;
    }
    if (patch.dueOn !== undefined && patch.dueOn !== current.dueOn) {
      next.dueOn = patch.dueOn;
      next.dueSource = patch.dueOn === null ? null : "manual";
    }
    if (patch.impact !== undefined) next.impact = patch.impact;
    if (patch.rationale !== undefined) next.rationale = patch.rationale.trim();
    const changes: ChangeSet = {};
    for (const field of ["status", "assigneeUserId", "assigneeTeamId", "dueOn", "impact", "rationale"] as const) {
      if (next[field] !== current[field]) changes[field] = { from: current[field], to: next[field] };
    }
    const note = patch.note?.trim() || null;
    if (Object.keys(changes).length === 0 && !note) {
      return { ok: true, item: (await viewsOf(tx, [current], today))[0]!, changes } as const;
    }
    const [updated] = await tx
      .update(triageItems)
      .set({
        status: next.status,
        assigneeUserId: next.assigneeUserId,
        assigneeTeamId: next.assigneeTeamId,
        dueOn: next.dueOn,
        dueSource: next.dueSource,
        impact: next.impact,
        rationale: next.rationale,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(key)
      .returning();
    await tx.insert(triageHistory).values({
      organizationId: actor.organizationId,
      documentId,
      actorUserId: actor.userId,
      actorName: actor.name,
      at: now,
      changes,
      note,
    });
    const item = (await viewsOf(tx, [updated!], today))[0]!;
    await queueTriageWebhookEvent(
      tx,
      actor.organizationId,
      "document.triaged",
      {
        document: { id: documentId, sourceId: doc.source_id, title: doc.title },
        triage: item,
        changes,
        actor: { id: actor.userId, name: actor.name },
      },
      now,
    );
    // The audit event last: its chain lock is held until the transaction ends.
    await recordAudit(tx, {
      organizationId: actor.organizationId,
      actor: { id: actor.userId, email: actor.email },
      action: "triage.updated",
      object: { type: "document", id: documentId },
      ip: actor.ip,
      userAgent: actor.userAgent,
      detail: { changes, ...(note ? { note } : {}), ...(actor.tokenId ? { tokenId: actor.tokenId } : {}) },
    });
    return { ok: true, item, changes } as const;
  });
}
