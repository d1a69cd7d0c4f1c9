/**
 * Obligations (issue 26): on a document the organisation decided applies, what it must do,
 * anchored to a paragraph of the document's text (its anchor `p-N` as the page renders it, the
 * paragraph's text kept as the excerpt), or (issue 39, decision 0146) to an article of a law the
 * organisation follows at one of its versions (the article's wording kept as the excerpt), with
 * an owner (member or group), a due date, a status and a free reference to the internal policy or
 * control it touches. Created and changed in one transaction with their history, the audit event
 * and the webhook event. An article's new wording opens a review (law-anchors.ts, reviews.ts).
 */
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { calendarDate, parseCalendarDate } from "../../lib/calendar-date.ts";
import { csvDocument } from "../../lib/csv.ts";
import type { Executor } from "../audit/executor.ts";
import { recordAudit } from "../audit/record.ts";
import type { Db } from "../db/client.ts";
import {
  type ChangeSet,
  type ObligationAnchorKind,
  type ObligationStatus,
  obligationHistory,
  obligationStatuses,
  obligations,
  triageItems,
} from "../db/schema/triage.ts";
import { reachable } from "../documents/reach.ts";
import type { Paragraph } from "../documents/types.ts";
import { anchorOf } from "../laws/page.ts";
import { madridDay } from "./due-date.ts";
import { newestVersion, wordingOf } from "./law-anchors.ts";
import { type Lang, triageText } from "./messages.ts";
import { isGroupOf, isMemberOf, namesOf } from "./people.ts";
import { type Assignee, type HistoryEntry, memberOrGroupInput, type TriageActor } from "./store.ts";
import { queueTriageWebhookEvent } from "./webhook-events.ts";

/** Triage statuses that mean "it applies": obligations can be recorded from them. */
export const appliesStatuses = ["applies", "in_progress", "done"] as const;

const owner = (lang: Lang) =>
  memberOrGroupInput(triageText[lang].assignee)
    .nullable()
    .meta({ description: "A member or a group of your organisation" });

export function obligationCreateSchema(lang: Lang) {
  const t = triageText[lang];
  return z
    .object({
      anchor: z
        .string({ error: t.anchor })
        .regex(/^p-\d{1,6}$/, t.anchor)
        .meta({ description: "The paragraph's anchor in the document's text (p-0, p-1…)" }),
      title: z.string({ error: t.title }).trim().min(3, t.title).max(200, t.title),
      description: z.string({ error: t.description }).max(2000, t.description).default(""),
      owner: owner(lang).default(null),
      dueOn: calendarDate({ error: t.dueOn }).nullable().default(null),
      status: z.enum(obligationStatuses, { error: t.obligationStatus }).default("open"),
      reference: z.string({ error: t.reference }).max(200, t.reference).default(""),
    })
    .strict();
}
export type ObligationCreate = z.output<ReturnType<typeof obligationCreateSchema>>;

/** An obligation anchored to an article (block) of a followed law, at one of its versions. */
export function lawObligationCreateSchema(lang: Lang) {
  const t = triageText[lang];
  const base = obligationCreateSchema(lang).omit({ anchor: true });
  return base
    .extend({
      block: z
        .string({ error: t.block })
        .regex(/^[\w.-]{1,60}$/, t.block)
        .meta({
          description: "The article's block id in the law (a13, art_5…), as GET /api/v1/laws/{id}/text lists them",
        }),
      version: z
        .string({ error: t.version })
        .regex(/^[\w.-]{1,60}$/, t.version)
        .optional()
        .meta({
          description:
            "The version anchored, by its amending norm (BOE-A-…, CELEX); the article's newest version when omitted",
        }),
    })
    .strict();
}
export type LawObligationCreate = z.output<ReturnType<typeof lawObligationCreateSchema>>;

export function obligationPatchSchema(lang: Lang) {
  const t = triageText[lang];
  return z
    .object({
      title: z.string({ error: t.title }).trim().min(3, t.title).max(200, t.title).optional(),
      description: z.string({ error: t.description }).max(2000, t.description).optional(),
      owner: owner(lang).optional(),
      dueOn: calendarDate({ error: t.dueOn }).nullable().optional(),
      status: z.enum(obligationStatuses, { error: t.obligationStatus }).optional(),
      reference: z.string({ error: t.reference }).max(200, t.reference).optional(),
      note: z.string({ error: t.note }).max(500, t.note).optional(),
    })
    .strict();
}
export type ObligationPatch = z.output<ReturnType<typeof obligationPatchSchema>>;

/** An article anchor: the law, the block and the version anchored (its amending norm and dates). */
export interface LawAnchor {
  id: string;
  title: string;
  blockId: string;
  blockTitle: string;
  version: { normId: string; publishedOn: string; inForceOn: string | null };
  /** The law page at the article. */
  href: string;
}

export interface ObligationView {
  id: string;
  anchorKind: ObligationAnchorKind;
  /** A paragraph anchor's document; null for an article anchor. */
  documentId: string | null;
  /** The paragraph (p-3) or the article's block id (a13). */
  anchor: string;
  /** An article anchor's law, block and version; null for a paragraph anchor. */
  law: LawAnchor | null;
  /** The anchored article changed and the review is not decided yet. */
  reviewNeeded: boolean;
  excerpt: string;
  title: string;
  description: string;
  owner: Assignee | null;
  dueOn: string | null;
  status: ObligationStatus;
  reference: string;
  overdue: boolean;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

type Row = typeof obligations.$inferSelect;

const uuidList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** Article anchors' laws, blocks and versions, and the obligations with an open review. */
async function anchorsOf(db: Executor, list: readonly Row[]) {
  const laws = new Map<string, LawAnchor>();
  const open = new Set<string>();
  const articles = list.filter((row) => row.anchorKind === "article");
  if (articles.length > 0) {
    const rows = (
      (await db.execute(sql`select o.id::text as id, o.law_id, coalesce(l.title, o.law_id) as title, o.block_id,
        coalesce(nullif(b.title, ''), o.block_id) as block_title, v.norm_id, v.published_on::text as published_on,
        v.in_force_on::text as in_force_on
      from obligations o left join laws l on l.id = o.law_id
      left join law_blocks b on b.law_id = o.law_id and b.block_id = o.block_id
      left join law_block_versions v on v.id = o.law_version_id
      where o.id in (${uuidList(articles.map((row) => row.id))})`)) as unknown as {
        rows: {
          id: string;
          law_id: string;
          title: string;
          block_id: string;
          block_title: string;
          norm_id: string | null;
          published_on: string | null;
          in_force_on: string | null;
        }[];
      }
    ).rows;
    for (const row of rows) {
      laws.set(row.id, {
        id: row.law_id,
        title: row.title,
        blockId: row.block_id,
        blockTitle: row.block_title,
        version: { normId: row.norm_id ?? "", publishedOn: row.published_on ?? "", inForceOn: row.in_force_on },
        href: `/app/laws/${encodeURIComponent(row.law_id)}?block=${encodeURIComponent(row.block_id)}#${anchorOf(row.block_id)}`,
      });
    }
    const reviews = (
      (await db.execute(sql`select obligation_id::text as id from obligation_reviews
        where decision is null and obligation_id in (${uuidList(articles.map((row) => row.id))})`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows;
    for (const row of reviews) open.add(row.id);
  }
  return { laws, open };
}

async function viewsOf(db: Executor, list: readonly Row[], today: string): Promise<ObligationView[]> {
  const names = await namesOf(db, {
    users: list.flatMap((row) => (row.ownerUserId ? [row.ownerUserId] : [])),
    groups: list.flatMap((row) => (row.ownerTeamId ? [row.ownerTeamId] : [])),
  });
  const anchors = await anchorsOf(db, list);
  return list.map((row) => ({
    id: row.id,
    anchorKind: row.anchorKind,
    documentId: row.documentId,
    anchor: row.anchor,
    law: anchors.laws.get(row.id) ?? null,
    reviewNeeded: anchors.open.has(row.id),
    excerpt: row.excerpt,
    title: row.title,
    description: row.description,
    owner: row.ownerUserId
      ? { type: "user", id: row.ownerUserId, name: names.users.get(row.ownerUserId)?.name ?? "—" }
      : row.ownerTeamId
        ? { type: "group", id: row.ownerTeamId, name: names.groups.get(row.ownerTeamId) ?? "—" }
        : null,
    dueOn: row.dueOn,
    status: row.status,
    reference: row.reference,
    overdue: row.dueOn !== null && row.dueOn < today && (row.status === "open" || row.status === "in_progress"),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

async function document(db: Executor, organizationId: string, documentId: string) {
  if (!z.uuid().safeParse(documentId).success) return undefined;
  const result = (await db.execute(sql`select d.id, d.source_id, d.title, d.paragraphs from documents d
    where d.id = ${documentId}::uuid and ${reachable(organizationId)}`)) as unknown as {
    rows: { id: string; source_id: string; title: string; paragraphs: Paragraph[] | null }[];
  };
  return result.rows[0];
}

async function ownerError(
  db: Executor,
  organizationId: string,
  value: { type: string; id: string } | null | undefined,
) {
  if (!value) return false;
  const ok =
    value.type === "user"
      ? await isMemberOf(db, organizationId, value.id)
      : await isGroupOf(db, organizationId, value.id);
  return !ok;
}

export type ObligationOutcome =
  | { ok: true; obligation: ObligationView; changes: ChangeSet }
  | { ok: false; error: "not_found" }
  | { ok: false; error: "field"; errors: Record<string, string[]> };

export function auditObligation(
  tx: Executor,
  actor: TriageActor,
  action: string,
  obligation: Row,
  detail: Record<string, unknown>,
) {
  const anchor =
    obligation.anchorKind === "article"
      ? { lawId: obligation.lawId, blockId: obligation.blockId }
      : { documentId: obligation.documentId };
  return recordAudit(tx, {
    organizationId: actor.organizationId,
    actor: { id: actor.userId, email: actor.email },
    action,
    object: { type: "obligation", id: obligation.id },
    ip: actor.ip,
    userAgent: actor.userAgent,
    detail: { ...anchor, ...detail, ...(actor.tokenId ? { tokenId: actor.tokenId } : {}) },
  });
}
const audit = auditObligation;

/** The subject an obligation's webhook events name: its document, or its law and article. */
async function subjectOf(db: Executor, organizationId: string, row: Row) {
  if (row.anchorKind === "article") {
    const anchors = await anchorsOf(db, [row]);
    const law = anchors.laws.get(row.id);
    return { law: law ? { id: law.id, title: law.title, blockId: law.blockId, blockTitle: law.blockTitle } : null };
  }
  const doc = row.documentId ? await document(db, organizationId, row.documentId) : undefined;
  return doc ? { document: { id: doc.id, sourceId: doc.source_id, title: doc.title } } : undefined;
}

/** The organisation follows the law (laws/reach.ts: its members' or groups' follows). */
async function followsLaw(db: Executor, organizationId: string, lawId: string): Promise<boolean> {
  const result = (await db.execute(sql`select 1 from alert_profiles
    where organization_id = ${organizationId} and law_id = ${lawId} limit 1`)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/**
 * Records an obligation anchored to an article of a law the organisation follows, at the version
 * named (or the article's newest): the article's wording is kept as the excerpt. Not found when the
 * organisation does not follow the law or the law has no such article.
 */
export async function createLawObligation(
  db: Db,
  actor: TriageActor,
  lawId: string,
  input: LawObligationCreate,
  lang: Lang,
  now = new Date(),
): Promise<ObligationOutcome> {
  const t = triageText[lang];
  // Not followed: not found before anything else is said about the input (laws/reach.ts).
  if (!(await followsLaw(db, actor.organizationId, lawId))) return { ok: false, error: "not_found" };
  if (await ownerError(db, actor.organizationId, input.owner)) {
    return { ok: false, error: "field", errors: { owner: [t.assignee] } };
  }
  return db.transaction(async (tx): Promise<ObligationOutcome> => {
    if (!(await followsLaw(tx, actor.organizationId, lawId))) return { ok: false, error: "not_found" } as const;
    const versions = (
      (await tx.execute(sql`select id::text as id, norm_id, published_on::text as published_on,
        in_force_on::text as in_force_on, html, text from law_block_versions
        where law_id = ${lawId} and block_id = ${input.block}`)) as unknown as {
        rows: {
          id: string;
          norm_id: string;
          published_on: string;
          in_force_on: string | null;
          html: string;
          text: string;
        }[];
      }
    ).rows;
    if (versions.length === 0) return { ok: false, error: "field", errors: { block: [t.block] } } as const;
    const chosen = input.version
      ? versions
          .filter((v) => v.norm_id === input.version)
          .sort((a, b) => b.published_on.localeCompare(a.published_on))[0]
      : await newestVersion(tx, lawId, input.block);
    if (!chosen) return { ok: false, error: "field", errors: { version: [t.version] } } as const;
    const [row] = await tx
      .insert(obligations)
      .values({
        organizationId: actor.organizationId,
        anchorKind: "article",
        documentId: null,
        anchor: input.block,
        lawId,
        blockId: input.block,
        lawVersionId: chosen.id,
        excerpt: wordingOf(chosen),
        title: input.title,
        description: input.description.trim(),
        ownerUserId: input.owner?.type === "user" ? input.owner.id : null,
        ownerTeamId: input.owner?.type === "group" ? input.owner.id : null,
        dueOn: input.dueOn,
        status: input.status,
        reference: input.reference.trim(),
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const changes: ChangeSet = { status: { from: null, to: row!.status }, title: { from: null, to: row!.title } };
    await tx.insert(obligationHistory).values({
      organizationId: actor.organizationId,
      obligationId: row!.id,
      actorUserId: actor.userId,
      actorName: actor.name,
      at: now,
      changes,
    });
    const view = (await viewsOf(tx, [row!], madridDay(now)))[0]!;
    await queueTriageWebhookEvent(
      tx,
      actor.organizationId,
      "obligation.created",
      {
        ...(await subjectOf(tx, actor.organizationId, row!)),
        obligation: view,
        actor: { id: actor.userId, name: actor.name },
      },
      now,
    );
    await audit(tx, actor, "obligation.created", row!, {
      title: row!.title,
      anchor: row!.anchor,
      normId: chosen.norm_id,
    });
    return { ok: true, obligation: view, changes } as const;
  });
}

export async function createObligation(
  db: Db,
  actor: TriageActor,
  documentId: string,
  input: ObligationCreate,
  lang: Lang,
  now = new Date(),
): Promise<ObligationOutcome> {
  const t = triageText[lang];
  if (await ownerError(db, actor.organizationId, input.owner)) {
    return { ok: false, error: "field", errors: { owner: [t.assignee] } };
  }
  return db.transaction(async (tx): Promise<ObligationOutcome> => {
    const doc = await document(tx, actor.organizationId, documentId);
    if (!doc) return { ok: false, error: "not_found" } as const;
    const [item] = await tx
      .select({ status: triageItems.status })
      .from(triageItems)
      .where(and(eq(triageItems.organizationId, actor.organizationId), eq(triageItems.documentId, documentId)));
    if (!item || !(appliesStatuses as readonly string[]).includes(item.status)) {
      return { ok: false, error: "field", errors: { status: [t.notApplies] } };
    }
    const paragraph = (doc.paragraphs ?? [])[Number(input.anchor.slice(2))];
    if (!paragraph) return { ok: false, error: "field", errors: { anchor: [t.anchor] } };
    const [row] = await tx
      .insert(obligations)
      .values({
        organizationId: actor.organizationId,
        anchorKind: "paragraph",
        documentId,
        anchor: input.anchor,
        excerpt: paragraph.text.slice(0, 2000),
        title: input.title,
        description: input.description.trim(),
        ownerUserId: input.owner?.type === "user" ? input.owner.id : null,
        ownerTeamId: input.owner?.type === "group" ? input.owner.id : null,
        dueOn: input.dueOn,
        status: input.status,
        reference: input.reference.trim(),
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const changes: ChangeSet = { status: { from: null, to: row!.status }, title: { from: null, to: row!.title } };
    await tx.insert(obligationHistory).values({
      organizationId: actor.organizationId,
      obligationId: row!.id,
      actorUserId: actor.userId,
      actorName: actor.name,
      at: now,
      changes,
    });
    const view = (await viewsOf(tx, [row!], madridDay(now)))[0]!;
    await queueTriageWebhookEvent(
      tx,
      actor.organizationId,
      "obligation.created",
      {
        document: { id: documentId, sourceId: doc.source_id, title: doc.title },
        obligation: view,
        actor: { id: actor.userId, name: actor.name },
      },
      now,
    );
    await audit(tx, actor, "obligation.created", row!, { title: row!.title, anchor: row!.anchor });
    return { ok: true, obligation: view, changes } as const;
  });
}

export async function updateObligation(
  db: Db,
  actor: TriageActor,
  obligationId: string,
  patch: ObligationPatch,
  lang: Lang,
  now = new Date(),
): Promise<ObligationOutcome> {
  if (!z.uuid().safeParse(obligationId).success) return { ok: false, error: "not_found" };
  if (await ownerError(db, actor.organizationId, patch.owner)) {
    return { ok: false, error: "field", errors: { owner: [triageText[lang].assignee] } };
  }
  return db.transaction(async (tx) => {
    const key = and(eq(obligations.id, obligationId), eq(obligations.organizationId, actor.organizationId));
    const [current] = await tx.select().from(obligations).where(key).for("update");
    if (!current) return { ok: false, error: "not_found" } as const;
    const subject = await subjectOf(tx, actor.organizationId, current);
    if (!subject) return { ok: false, error: "not_found" } as const;
    const next = { ...current };
    if (patch.title !== undefined) next.title = patch.title;
    if (patch.description !== undefined) next.description = patch.description.trim();
    if (patch.owner !== undefined) {
      next.ownerUserId = patch.owner?.type === "user" ? patch.owner.id : null;
      next.ownerTeamId = patch.owner?.type === "group" ? patch.owner.id : null;
    }
    if (patch.dueOn !== undefined) next.dueOn = patch.dueOn;
    if (patch.status !== undefined) next.status = patch.status;
    if (patch.reference !== undefined) next.reference = patch.reference.trim();
    const changes: ChangeSet = {};
    const fields = ["title", "description", "ownerUserId", "ownerTeamId", "dueOn", "status", "reference"] as const;
    for (const field of fields) {
      if (next[field] !== current[field]) changes[field] = { from: current[field], to: next[field] };
    }
    const note = patch.note?.trim() || null;
    const today = madridDay(now);
    if (Object.keys(changes).length === 0 && !note) {
      return { ok: true, obligation: (await viewsOf(tx, [current], today))[0]!, changes } as const;
    }
    const [row] = await tx
      .update(obligations)
      .set({
        title: next.title,
        description: next.description,
        ownerUserId: next.ownerUserId,
        ownerTeamId: next.ownerTeamId,
        dueOn: next.dueOn,
        status: next.status,
        reference: next.reference,
        updatedAt: now,
      })
      .where(key)
      .returning();
    await tx.insert(obligationHistory).values({
      organizationId: actor.organizationId,
      obligationId,
      actorUserId: actor.userId,
      actorName: actor.name,
      at: now,
      changes,
      note,
    });
    const view = (await viewsOf(tx, [row!], today))[0]!;
    await queueTriageWebhookEvent(
      tx,
      actor.organizationId,
      "obligation.updated",
      {
        ...subject,
        obligation: view,
        changes,
        actor: { id: actor.userId, name: actor.name },
      },
      now,
    );
    await audit(tx, actor, "obligation.updated", row!, { changes, ...(note ? { note } : {}) });
    return { ok: true, obligation: view, changes } as const;
  });
}

/** One obligation of the organisation (within its reach), or undefined. */
export async function getObligation(db: Db, organizationId: string, obligationId: string, now = new Date()) {
  if (!z.uuid().safeParse(obligationId).success) return undefined;
  const [row] = await db
    .select()
    .from(obligations)
    .where(and(eq(obligations.id, obligationId), eq(obligations.organizationId, organizationId)));
  if (!row || !(await subjectOf(db, organizationId, row))) return undefined;
  return (await viewsOf(db, [row], madridDay(now)))[0];
}

export async function obligationHistoryOf(
  db: Db,
  organizationId: string,
  obligationId: string,
): Promise<HistoryEntry[]> {
  const rows = await db
    .select()
    .from(obligationHistory)
    .where(and(eq(obligationHistory.organizationId, organizationId), eq(obligationHistory.obligationId, obligationId)))
    .orderBy(asc(obligationHistory.at), asc(obligationHistory.id));
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    actor: { id: row.actorUserId, name: row.actorName },
    changes: row.changes,
    note: row.note,
  }));
}

export interface ObligationFilters {
  statuses: ObligationStatus[];
  owner: { type: "user" | "group"; id: string } | null;
  documentId: string | null;
  dueFrom: string | null;
  dueTo: string | null;
  overdue: boolean;
  /** Only obligations whose anchored article changed and wait for a review. */
  review: boolean;
  /** One law's obligations (article anchors). */
  lawId: string | null;
}

export function parseObligationFilters(params: URLSearchParams): ObligationFilters {
  const day = (value: string | null) => parseCalendarDate(value) ?? null;
  const ownerParam = params.get("owner") ?? "";
  const [kind, id] = [ownerParam.slice(0, ownerParam.indexOf(":")), ownerParam.slice(ownerParam.indexOf(":") + 1)];
  const document = params.get("document");
  const overdue = params.get("overdue");
  const review = params.get("review");
  const law = params.get("law");
  return {
    statuses: params
      .getAll("status")
      .flatMap((v) => v.split(","))
      .filter((v): v is ObligationStatus => (obligationStatuses as readonly string[]).includes(v)),
    owner: (kind === "user" || kind === "group") && /^[A-Za-z0-9_-]{1,100}$/.test(id) ? { type: kind, id } : null,
    documentId: document && z.uuid().safeParse(document).success ? document : null,
    dueFrom: day(params.get("due_from")),
    dueTo: day(params.get("due_to")),
    overdue: overdue === "1" || overdue === "true" || overdue === "on",
    review: review === "1" || review === "true" || review === "on",
    lawId: law && /^[\w.-]{1,60}$/.test(law) ? law : null,
  };
}

export interface RegisterRow extends ObligationView {
  /** A paragraph anchor's document (BOE id…) and title; "" for an article anchor. */
  sourceId: string;
  documentTitle: string;
}

/** The organisation's register: every obligation within its reach, by due date. */
export async function listObligations(
  db: Db,
  organizationId: string,
  filters: ObligationFilters,
  options: { now?: Date; limit?: number } = {},
): Promise<RegisterRow[]> {
  const today = madridDay(options.now ?? new Date());
  // A paragraph anchor within the organisation's reach (documents/reach.ts); an article anchor is
  // the organisation's own record of a public law's text (decision 0146).
  const where: SQL[] = [
    sql`o.organization_id = ${organizationId}`,
    sql`(o.anchor_kind = 'article' or ${reachable(organizationId)})`,
  ];
  if (filters.statuses.length) {
    where.push(
      sql`o.status in (${sql.join(
        filters.statuses.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
  }
  if (filters.owner?.type === "user") where.push(sql`o.owner_user_id = ${filters.owner.id}`);
  if (filters.owner?.type === "group") where.push(sql`o.owner_team_id = ${filters.owner.id}`);
  if (filters.documentId) where.push(sql`o.document_id = ${filters.documentId}::uuid`);
  if (filters.dueFrom) where.push(sql`o.due_on >= ${filters.dueFrom}::date`);
  if (filters.dueTo) where.push(sql`o.due_on <= ${filters.dueTo}::date`);
  if (filters.overdue) where.push(sql`o.due_on < ${today}::date and o.status in ('open', 'in_progress')`);
  if (filters.review) {
    where.push(sql`exists (select 1 from obligation_reviews r where r.obligation_id = o.id and r.decision is null)`);
  }
  if (filters.lawId) where.push(sql`o.law_id = ${filters.lawId}`);
  const found = (
    (await db.execute(sql`select o.id, coalesce(d.source_id, '') as source_id, coalesce(d.title, '') as document_title
    from obligations o left join documents d on d.id = o.document_id where ${sql.join(where, sql` and `)}
    order by o.due_on asc nulls last, o.created_at, o.id limit ${options.limit ?? 5000}`)) as unknown as {
      rows: { id: string; source_id: string; document_title: string }[];
    }
  ).rows;
  if (found.length === 0) return [];
  const byId = new Map(found.map((row) => [row.id, row]));
  const full = await db
    .select()
    .from(obligations)
    .where(
      and(
        eq(obligations.organizationId, organizationId),
        sql`${obligations.id} in (${sql.join(
          found.map((row) => sql`${row.id}::uuid`),
          sql`, `,
        )})`,
      ),
    )
    .orderBy(asc(obligations.dueOn), asc(obligations.createdAt), desc(obligations.id));
  const views = await viewsOf(db, full, today);
  const order = new Map(found.map((row, index) => [row.id, index]));
  return views
    .map((view) => ({
      ...view,
      sourceId: byId.get(view.id)?.source_id ?? "",
      documentTitle: byId.get(view.id)?.document_title ?? "",
    }))
    .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

export const obligationCsvHeader = [
  "id",
  "source_id",
  "document_id",
  "document_title",
  "anchor",
  "excerpt",
  "title",
  "description",
  "owner",
  "due_on",
  "status",
  "reference",
  "created_at",
  "updated_at",
  "anchor_kind",
  "law_id",
  "law_title",
  "block_title",
  "law_version",
  "review_needed",
];

export function obligationsCsv(rows: readonly RegisterRow[]): string {
  return csvDocument(
    obligationCsvHeader,
    rows.map((row) => [
      row.id,
      row.sourceId,
      row.documentId,
      row.documentTitle,
      row.anchor,
      row.excerpt,
      row.title,
      row.description,
      row.owner ? `${row.owner.type}:${row.owner.name}` : "",
      row.dueOn ?? "",
      row.status,
      row.reference,
      row.createdAt,
      row.updatedAt,
      row.anchorKind,
      row.law?.id ?? "",
      row.law?.title ?? "",
      row.law?.blockTitle ?? "",
      row.law?.version.normId ?? "",
      row.reviewNeeded ? "yes" : "no",
    ]),
  );
}
