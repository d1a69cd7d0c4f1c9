/**
 * The evidence pack (issue 26): for one document or a period, what an auditor asks — who got the
 * alert and when (per channel), who opened it, the triage decisions and their authors, the
 * obligations, the notes the viewer may see, and the audit excerpt with the chain's verification.
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
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(scope.document))
      return { rows: [], truncated: false };
    const rows = await database.rows<DocRow>(
      sql`select ${columns} from documents d where d.id = ${scope.document}::uuid and ${reachable(organizationId)}`,
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

async function auditExcerpt(
  database: Database,
  organizationId: string,
  documentIds: string[],
  obligationIds: string[],
  period: { from: Date; to: Date } | null,
): Promise<AuditExcerptEvent[]> {
  if (documentIds.length === 0) return [];
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
  const events = await auditExcerpt(
    database,
    organizationId,
    documents.map((d) => d.id),
    documents.flatMap((d) => d.obligations.map((o) => o.id)),
    period,
  );
  const verification = await verifyAuditChain(database.db, organizationId);
  return {
    organizationId,
    generatedAt: now.toISOString(),
    generatedBy: { id: viewer.userId, email: viewer.email },
    scope:
      "document" in scope
        ? { document: scope.document, from: null, to: null }
        : { document: null, from: scope.from, to: scope.to },
    truncated,
    documents,
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
