/**
 * The evidence pack (issue 26): for one document or a period, what an auditor asks — who got the
 * alert and when (per channel), who opened it, the triage decisions and their authors, the
 * obligations, the notes the viewer may see, and the audit excerpt with the chain's verification;
 * and (issue 39) the obligations anchored to a followed law's article with their reviews: the
 * anchored and the new version, the decision, who and when.
 * One builder for the page, its JSON download and GET /api/v1/evidence; the organisation reach
 * rule decides which documents exist (another organisation's feed entry is simply not found).
 */
import { sql } from "drizzle-orm";
import { verifyAuditChain } from "../audit/verify.ts";
import { listNotesFor, type Viewer } from "../collab/notes.ts";
import { readersOf } from "../collab/reads.ts";
import type { Database } from "../db/client.ts";
import { reachable } from "../documents/reach.ts";

export type EvidenceScope = { document: string } | { from: string; to: string };

/** At most this many documents in a period's pack (the page says when a period holds more). */
export const maxPackDocuments = 200;
/** At most this many audit events in the excerpt. */
export const maxExcerptEvents = 2000;

export interface Person {
  id: string;
  name: string;
  email: string;
}

export interface AlertDelivery {
  channel: "inapp" | "email" | "chat" | "webhook" | string;
  /** The member for in-app and mail; null for a group's chat channel and an API webhook. */
  recipient: Person | null;
  /** The alert profile (chat, in-app, mail) or the webhook subscription id. */
  via: string;
  status: string;
  queuedAt: string;
  sentAt: string | null;
  /** In-app alerts: when the member marked or opened it. */
  readAt: string | null;
}

export interface ReadReceipt {
  reader: Person;
  firstReadAt: string;
  lastReadAt: string;
}

export interface TriageDecision {
  at: string;
  actor: { id: string; name: string };
  changes: Record<string, { from: unknown; to: unknown }>;
  note: string | null;
}

export interface TriageState {
  status: string;
  assigneeUserId: string | null;
  assigneeTeamId: string | null;
  dueOn: string | null;
  impact: string | null;
  rationale: string;
  updatedAt: string;
}

export interface ObligationEvidence {
  id: string;
  title: string;
  description: string;
  anchor: string;
  excerpt: string;
  ownerUserId: string | null;
  ownerTeamId: string | null;
  dueOn: string | null;
  status: string;
  reference: string;
  createdBy: string;
  createdAt: string;
}

export interface NoteEvidence {
  id: string;
  author: Person;
  visibility: string;
  groupId: string | null;
  paragraph: number | null;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export interface DocumentEvidence {
  id: string;
  source: string;
  sourceId: string;
  title: string;
  publishedOn: string;
  officialUrl: string;
  alerts: AlertDelivery[];
  reads: ReadReceipt[];
  triage: TriageState | null;
  decisions: TriageDecision[];
  obligations: ObligationEvidence[];
  notes: NoteEvidence[];
}

/** One review of an article-anchored obligation: the version anchored, the new one, and the decision. */
export interface ReviewEvidence {
  id: string;
  openedAt: string;
  from: { normId: string; publishedOn: string; text: string };
  to: { normId: string; publishedOn: string; text: string };
  /** still_applies, changed, no_longer_applies; null while open. */
  decision: string | null;
  note: string | null;
  newText: string | null;
  decidedBy: { id: string; name: string } | null;
  decidedAt: string | null;
}

/** An obligation anchored to an article of a followed law, with its review history (oldest first). */
export interface LawObligationEvidence {
  obligation: {
    id: string;
    title: string;
    description: string;
    status: string;
    ownerUserId: string | null;
    ownerTeamId: string | null;
    createdBy: string;
    createdAt: string;
  };
  anchor: {
    lawId: string;
    lawTitle: string;
    blockId: string;
    blockTitle: string;
    /** The version anchored now (after the last decision). */
    version: { normId: string; publishedOn: string };
  };
  reviews: ReviewEvidence[];
}

export interface AuditExcerptEvent {
  id: string;
  seq: number;
  at: string;
  actor: { id: string; email: string } | null;
  action: string;
  object: { type: string; id: string } | null;
  hash: string;
  prevHash: string;
}

export interface EvidencePack {
  organizationId: string;
  generatedAt: string;
  generatedBy: { id: string; email: string };
  scope: { document: string | null; from: string | null; to: string | null };
  /** True when a period held more documents than the pack lists (maxPackDocuments). */
  truncated: boolean;
  documents: DocumentEvidence[];
  /**
   * Article-anchored obligations: a document's pack holds those the document's act re-worded
   * (a review to or an anchor at its version); a period's those created or reviewed in it.
   */
  lawObligations: LawObligationEvidence[];
  audit: {
    events: AuditExcerptEvent[];
    verification: { valid: boolean; events: number; firstBroken: string | null; reason: string | null };
  };
}

const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();
const isoOf = (value: Date | string): string => new Date(value).toISOString();

/** The period's instants: `from` at its day's start, `to` through its whole day (UTC). */
function periodOf(scope: EvidenceScope): { from: Date; to: Date } | null {
  if ("document" in scope) return null;
  const from = new Date(`${scope.from}T00:00:00Z`);
  const to = new Date(`${scope.to}T00:00:00Z`);
  to.setUTCDate(to.getUTCDate() + 1);
  return { from, to };
}

interface DocRow {
  id: string;
  source: string;
  source_id: string;
  title: string;
  published_on: string;
  official_url: string;
}

/** The documents of the pack, within the organisation's reach; [] for an unknown or unreachable document. */
async function packDocuments(
  database: Database,
  organizationId: string,
  scope: EvidenceScope,
): Promise<{ rows: DocRow[]; truncated: boolean }> {
  const columns = sql`d.id, d.source, d.source_id, d.title, d.published_on, d.official_url`;
  if ("document" in scope) {
    // The platform's id, or the source's (a BOE id, a CELEX number), within the organisation's reach.
    // A source id held twice (an organisation's feed brought it too) gives the gazette's own first.
    const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(scope.document);
    const rows = await database.rows<DocRow>(
      byId
        ? sql`select ${columns} from documents d where d.id = ${scope.document}::uuid and ${reachable(organizationId)}`
        : sql`select ${columns} from documents d
            where d.source = ${scope.document.startsWith("BOE-") ? "boe" : "eurlex"} and d.source_id = ${scope.document}
              and ${reachable(organizationId)}
            order by d.feed_id nulls first, d.published_on desc, d.id limit 1`,
    );
    return { rows, truncated: false };
  }
  const period = periodOf(scope);
  if (!period) return { rows: [], truncated: false };
  const { from, to } = period;
  // A document belongs to the period when something of the organisation happened to it then.
  const rows = await database.rows<DocRow>(sql`
    select ${columns} from documents d
    where ${reachable(organizationId)} and d.id in (
      select m.document_id from deliveries x join alert_matches m on x.match_key = m.id::text
        where x.organization_id = ${organizationId} and x.created_at >= ${from} and x.created_at < ${to}
      union select r.document_id from document_reads r
        where r.organization_id = ${organizationId} and r.first_read_at >= ${from} and r.first_read_at < ${to}
      union select h.document_id from triage_history h
        where h.organization_id = ${organizationId} and h.at >= ${from} and h.at < ${to}
      union select o.document_id from obligations o
        where o.organization_id = ${organizationId} and o.created_at >= ${from} and o.created_at < ${to}
      union select n.document_id from notes n
        where n.organization_id = ${organizationId} and n.created_at >= ${from} and n.created_at < ${to})
    order by d.published_on, d.id
    limit ${maxPackDocuments + 1}`);
  return { rows: rows.slice(0, maxPackDocuments), truncated: rows.length > maxPackDocuments };
}

async function people(database: Database, ids: string[]): Promise<Map<string, Person>> {
  const unique = [...new Set(ids)].filter(Boolean);
  if (unique.length === 0) return new Map();
  const rows = await database.rows<Person>(
    sql`select id, name, email from auth_user where id in (${sql.join(
      unique.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return new Map(rows.map((row) => [row.id, row]));
}

function personOf(byId: Map<string, Person>, id: string): Person {
  return byId.get(id) ?? { id, name: id, email: "" };
}

async function alertsOf(database: Database, organizationId: string, documentId: string): Promise<AlertDelivery[]> {
  const rows = await database.rows<{
    channel: string;
    recipient: string;
    status: string;
    created_at: Date;
    sent_at: Date | null;
    profile_name: string | null;
    read_at: Date | null;
  }>(sql`
    select x.channel, x.recipient, x.status, x.created_at, x.sent_at, p.name as profile_name,
      (select a.read_at from alerts a where x.channel = 'inapp' and a.user_id = x.recipient
        and a.document_id = m.document_id and a.profile_id = m.profile_id) as read_at
    from deliveries x
    join alert_matches m on x.match_key = m.id::text
    join alert_profiles p on p.id = m.profile_id
    where x.organization_id = ${organizationId} and m.document_id = ${documentId}::uuid
    union all
    select x.channel, x.recipient, x.status, x.created_at, x.sent_at, null, null
    from deliveries x
    where x.organization_id = ${organizationId} and x.match_key = ${`webhook:${documentId}`}
    order by created_at, channel, recipient`);
  const userChannels = new Set(["inapp", "email"]);
  const byId = await people(
    database,
    rows.filter((row) => userChannels.has(row.channel)).map((row) => row.recipient),
  );
  return rows.map((row) => ({
    channel: row.channel,
    // A chat recipient is the channel's webhook URL, a secret: the pack names the profile instead.
    recipient: userChannels.has(row.channel) ? personOf(byId, row.recipient) : null,
    via: row.channel === "webhook" ? row.recipient : (row.profile_name ?? ""),
    status: row.status,
    queuedAt: isoOf(row.created_at),
    sentAt: iso(row.sent_at),
    readAt: iso(row.read_at),
  }));
}

async function triageOf(database: Database, organizationId: string, documentId: string) {
  const [state] = await database.rows<{
    status: string;
    assignee_user_id: string | null;
    assignee_team_id: string | null;
    due_on: string | null;
    impact: string | null;
    rationale: string;
    updated_at: Date;
  }>(sql`select status, assignee_user_id, assignee_team_id, due_on::text as due_on, impact, rationale, updated_at
    from triage_items where organization_id = ${organizationId} and document_id = ${documentId}::uuid`);
  const history = await database.rows<{
    at: Date;
    actor_user_id: string;
    actor_name: string;
    changes: Record<string, { from: unknown; to: unknown }>;
    note: string | null;
  }>(sql`select at, actor_user_id, actor_name, changes, note from triage_history
    where organization_id = ${organizationId} and document_id = ${documentId}::uuid order by at, id`);
  const obligations = await database.rows<{
    id: string;
    title: string;
    description: string;
    anchor: string;
    excerpt: string;
    owner_user_id: string | null;
    owner_team_id: string | null;
    due_on: string | null;
    status: string;
    reference: string;
    created_by: string;
    created_at: Date;
  }>(sql`select id, title, description, anchor, excerpt, owner_user_id, owner_team_id, due_on::text as due_on,
      status, reference, created_by, created_at
    from obligations where organization_id = ${organizationId} and document_id = ${documentId}::uuid
    order by created_at, id`);
  return {
    triage: state
      ? {
          status: state.status,
          assigneeUserId: state.assignee_user_id,
          assigneeTeamId: state.assignee_team_id,
          dueOn: state.due_on,
          impact: state.impact,
          rationale: state.rationale,
          updatedAt: isoOf(state.updated_at),
        }
      : null,
    decisions: history.map((row) => ({
      at: isoOf(row.at),
      actor: { id: row.actor_user_id, name: row.actor_name },
      changes: row.changes ?? {},
      note: row.note,
    })),
    obligations: obligations.map((row) => ({
      id: row.id,
      title: row.title ?? "",
      description: row.description ?? "",
      anchor: row.anchor ?? "",
      excerpt: row.excerpt ?? "",
      ownerUserId: row.owner_user_id,
      ownerTeamId: row.owner_team_id,
      dueOn: row.due_on,
      status: row.status,
      reference: row.reference ?? "",
      createdBy: row.created_by,
      createdAt: isoOf(row.created_at),
    })),
  };
}

/** Article-anchored obligations of the pack (see EvidencePack.lawObligations), with their reviews. */
async function lawObligationsOf(
  database: Database,
  organizationId: string,
  scope: { norms: string[] } | { period: { from: Date; to: Date } },
): Promise<LawObligationEvidence[]> {
  if ("norms" in scope && scope.norms.length === 0) return [];
  const which =
    "norms" in scope
      ? sql`(v.norm_id in (${sql.join(
          scope.norms.map((n) => sql`${n}`),
          sql`, `,
        )}) or exists (select 1 from obligation_reviews r join law_block_versions rv on rv.id = r.to_version_id
          where r.obligation_id = o.id and rv.norm_id in (${sql.join(
            scope.norms.map((n) => sql`${n}`),
            sql`, `,
          )})))`
      : sql`(o.created_at >= ${scope.period.from} and o.created_at < ${scope.period.to}
          or exists (select 1 from obligation_reviews r where r.obligation_id = o.id
            and (r.opened_at >= ${scope.period.from} and r.opened_at < ${scope.period.to}
              or r.decided_at >= ${scope.period.from} and r.decided_at < ${scope.period.to})))`;
  const obligations = await database.rows<{
    id: string;
    title: string;
    description: string;
    status: string;
    owner_user_id: string | null;
    owner_team_id: string | null;
    created_by: string;
    created_at: Date;
    law_id: string;
    law_title: string;
    block_id: string;
    block_title: string;
    norm_id: string | null;
    published_on: string | null;
  }>(sql`
    select o.id::text as id, o.title, o.description, o.status, o.owner_user_id, o.owner_team_id, o.created_by,
      o.created_at, o.law_id, coalesce(l.title, o.law_id) as law_title, o.block_id,
      coalesce(nullif(b.title, ''), o.block_id) as block_title, v.norm_id, v.published_on::text as published_on
    from obligations o left join laws l on l.id = o.law_id
    left join law_blocks b on b.law_id = o.law_id and b.block_id = o.block_id
    left join law_block_versions v on v.id = o.law_version_id
    where o.organization_id = ${organizationId} and o.anchor_kind = 'article' and ${which}
    order by o.created_at, o.id
    limit ${maxPackDocuments}`);
  if (obligations.length === 0) return [];
  const reviews = await database.rows<{
    id: string;
    obligation_id: string;
    opened_at: Date;
    from_norm: string | null;
    from_published: string | null;
    from_text: string;
    to_norm: string | null;
    to_published: string | null;
    to_text: string;
    decision: string | null;
    note: string | null;
    new_text: string | null;
    decided_by: string | null;
    decided_by_name: string | null;
    decided_at: Date | null;
  }>(sql`
    select r.id::text as id, r.obligation_id::text as obligation_id, r.opened_at, f.norm_id as from_norm,
      f.published_on::text as from_published, r.from_text, t.norm_id as to_norm, t.published_on::text as to_published,
      r.to_text, r.decision, r.note, r.new_text, r.decided_by, r.decided_by_name, r.decided_at
    from obligation_reviews r left join law_block_versions f on f.id = r.from_version_id
    left join law_block_versions t on t.id = r.to_version_id
    where r.organization_id = ${organizationId} and r.obligation_id in (${sql.join(
      obligations.map((o) => sql`${o.id}::uuid`),
      sql`, `,
    )})
    order by r.opened_at, r.id`);
  return obligations.map((o) => ({
    obligation: {
      id: o.id,
      title: o.title,
      description: o.description,
      status: o.status,
      ownerUserId: o.owner_user_id,
      ownerTeamId: o.owner_team_id,
      createdBy: o.created_by,
      createdAt: isoOf(o.created_at),
    },
    anchor: {
      lawId: o.law_id,
      lawTitle: o.law_title,
      blockId: o.block_id,
      blockTitle: o.block_title,
      version: { normId: o.norm_id ?? "", publishedOn: o.published_on ?? "" },
    },
    reviews: reviews
      .filter((r) => r.obligation_id === o.id)
      .map((r) => ({
        id: r.id,
        openedAt: isoOf(r.opened_at),
        from: { normId: r.from_norm ?? "", publishedOn: r.from_published ?? "", text: r.from_text },
        to: { normId: r.to_norm ?? "", publishedOn: r.to_published ?? "", text: r.to_text },
        decision: r.decision,
        note: r.note,
        newText: r.new_text,
        decidedBy: r.decided_by ? { id: r.decided_by, name: r.decided_by_name ?? "" } : null,
        decidedAt: iso(r.decided_at),
      })),
  }));
}

async function auditExcerpt(
  database: Database,
  organizationId: string,
  documentIds: string[],
  obligationIds: string[],
  period: { from: Date; to: Date } | null,
): Promise<AuditExcerptEvent[]> {
  if (documentIds.length === 0 && obligationIds.length === 0) return [];
  const list = (ids: string[]) =>
    ids.length
      ? sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )
      : sql`null`;
  const rows = await database.rows<{
    id: string;
    seq: number | string;
    at: Date;
    actor_id: string | null;
    actor_email: string | null;
    action: string;
    object_type: string | null;
    object_id: string | null;
    hash: string;
    prev_hash: string;
  }>(sql`
    select id, seq, at, actor_id, actor_email, action, object_type, object_id, hash, prev_hash
    from audit_events
    where organization_id = ${organizationId}
      and ((object_type = 'document' and object_id in (${list(documentIds)}))
        or (object_type = 'obligation' and object_id in (${list(obligationIds)}))
        or detail->>'documentId' in (${list(documentIds)}))
      ${period ? sql`and at >= ${period.from} and at < ${period.to}` : sql``}
    order by seq
    limit ${maxExcerptEvents}`);
  return rows.map((row) => ({
    id: row.id,
    seq: Number(row.seq),
    at: isoOf(row.at),
    actor: row.actor_id !== null ? { id: row.actor_id, email: row.actor_email ?? "" } : null,
    action: row.action,
    object: row.object_type !== null ? { type: row.object_type, id: row.object_id ?? "" } : null,
    hash: row.hash,
    prevHash: row.prev_hash,
  }));
}

/**
 * The pack as `viewer` may see it (notes by visibility; receipts need an admin or the document's
 * group). Null for a one-document pack whose document is unknown or outside the reach (a 404).
 */
export async function buildEvidencePack(
  database: Database,
  viewer: Viewer,
  scope: EvidenceScope,
  now: Date = new Date(),
): Promise<EvidencePack | null> {
  const organizationId = viewer.organizationId;
  const { rows, truncated } = await packDocuments(database, organizationId, scope);
  if ("document" in scope && rows.length === 0) return null;
  const period = periodOf(scope);
  const within = (at: string | null) =>
    !period || (at !== null && new Date(at) >= period.from && new Date(at) < period.to);
  const documents: DocumentEvidence[] = [];
  for (const row of rows) {
    const [alerts, receipts, triage, notes] = await Promise.all([
      alertsOf(database, organizationId, row.id),
      readersOf(database.db, viewer, row.id),
      triageOf(database, organizationId, row.id),
      listNotesFor(database.db, viewer, row.id),
    ]);
    const byId = await people(database, [
      ...(receipts ?? []).map((r) => r.userId),
      ...notes.map((note) => note.authorId),
    ]);
    documents.push({
      id: row.id,
      source: row.source,
      sourceId: row.source_id,
      title: row.title,
      publishedOn: row.published_on,
      officialUrl: row.official_url,
      alerts: alerts.filter((a) => within(a.queuedAt)),
      reads: (receipts ?? [])
        .map((r) => ({
          reader: personOf(byId, r.userId),
          firstReadAt: isoOf(r.firstReadAt),
          lastReadAt: isoOf(r.lastReadAt),
        }))
        .filter((r) => within(r.firstReadAt)),
      triage: triage.triage,
      decisions: triage.decisions.filter((d) => within(d.at)),
      obligations: triage.obligations.filter((o) => within(o.createdAt)),
      notes: notes
        .map((note) => ({
          id: note.id,
          author: personOf(byId, note.authorId),
          visibility: note.visibility,
          groupId: note.groupId,
          paragraph: note.paragraph,
          body: note.body,
          createdAt: isoOf(note.createdAt),
          updatedAt: isoOf(note.updatedAt),
        }))
        .filter((note) => within(note.createdAt))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    });
  }
  const lawObligations = await lawObligationsOf(
    database,
    organizationId,
    "document" in scope ? { norms: rows.map((row) => row.source_id) } : { period: period! },
  );
  const events = await auditExcerpt(
    database,
    organizationId,
    documents.map((d) => d.id),
    [...documents.flatMap((d) => d.obligations.map((o) => o.id)), ...lawObligations.map((o) => o.obligation.id)],
    period,
  );
  const verification = await verifyAuditChain(database.db, organizationId);
  return {
    organizationId,
    generatedAt: now.toISOString(),
    generatedBy: { id: viewer.userId, email: viewer.email },
    scope:
      "document" in scope
        ? { document: documents[0]?.id ?? scope.document, from: null, to: null }
        : { document: null, from: scope.from, to: scope.to },
    truncated,
    documents,
    lawObligations,
    audit: {
      events,
      verification: {
        valid: verification.valid,
        events: verification.events,
        firstBroken: verification.firstBroken,
        reason: verification.reason,
      },
    },
  };
}
