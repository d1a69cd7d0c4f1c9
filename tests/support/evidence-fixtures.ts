/**
 * The issue 26 story, set up through the platform's own tables and services for the evidence,
 * calendar and overview tests: two organisations; in A an admin (Ana), a member of the Legal
 * group (Bea) and a member of no group (Carl); a BOE document that the Legal group's profile
 * matched (alerts in-app and by mail, read by Bea), triaged (under review → assigned to Legal →
 * applies), with two obligations and notes of every visibility; a private feed entry of A's own.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { recordAudit } from "../../app/.server/audit/record.ts";
import type { MemberInfo } from "../../app/.server/auth/permissions.ts";
import { createNote, type Viewer } from "../../app/.server/collab/notes.ts";
import { recordRead } from "../../app/.server/collab/reads.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createObligation } from "../../app/.server/triage/obligations.ts";
import { type TriageActor, type TriagePatch, updateTriage } from "../../app/.server/triage/store.ts";
import { memberInfo } from "./page-harness.ts";

export interface EvidenceStory {
  ana: MemberInfo;
  bea: MemberInfo;
  carl: MemberInfo;
  /** An admin of organisation B. */
  olga: MemberInfo;
  boeDocumentId: string;
  feedDocumentId: string;
  /** An EU act (CELEX 32016R0679), public. */
  eurlexDocumentId: string;
  /** A document nobody followed or triaged (no calendar event expected). */
  otherDocumentId: string;
  obligationIds: [string, string];
  team: string;
  /** Dates of the story (YYYY-MM-DD). */
  dates: { published: string; effective: string; triageDue: string; obligationDue: [string, string] };
}

const day = (offsetDays: number, now = new Date()) =>
  new Date(now.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);

export async function insertDocument(
  database: Database,
  input: {
    source: "boe" | "feed" | "eurlex";
    sourceId: string;
    title: string;
    publishedOn: string;
    effectiveDates?: string[];
    areaIds?: string[];
    relevance?: string;
    feedId?: string | null;
  },
): Promise<string> {
  const id = randomUUID();
  const areas = (input.areaIds ?? []).map((area) => ({ id: area, score: 0.9, reasons: ["test"] }));
  await database.rows(sql`insert into documents (id, source, source_id, feed_id, title, language, published_on,
      area_ids, areas, relevance, official_url, effective_dates, record, content_hash, paragraphs)
    values (${id}::uuid, ${input.source}, ${input.sourceId}, ${input.feedId ?? null}, ${input.title}, 'es', ${input.publishedOn},
      ${sql`array[${sql.join(
        (input.areaIds ?? []).map((a) => sql`${a}`),
        sql`, `,
      )}]::text[]`}, ${JSON.stringify(areas)}::jsonb, ${input.relevance ?? "high"},
      ${`https://www.boe.es/diario_boe/txt.php?id=${input.sourceId}`}, ${JSON.stringify(input.effectiveDates ?? [])}::jsonb,
      ${JSON.stringify({ sourceId: input.sourceId })}::jsonb, ${"c".repeat(64)},
      ${JSON.stringify([{ id: "p1", text: "Artículo 1. Las entidades deberán notificar; y, además, informar." }])}::jsonb)`);
  return id;
}

async function ensureUser(database: Database, m: MemberInfo, role: string) {
  await database.rows(sql`insert into auth_organization (id, name, slug, created_at)
    values (${m.organizationId}, ${m.organizationName}, ${m.organizationId}, now()) on conflict do nothing`);
  await database.rows(sql`insert into auth_user (id, name, email, locale) values (${m.userId}, ${m.name}, ${m.email}, ${m.locale})
    on conflict do nothing`);
  await database.rows(sql`insert into auth_member (id, organization_id, user_id, role, created_at)
    values (${m.memberId}, ${m.organizationId}, ${m.userId}, ${role}, now()) on conflict do nothing`);
}

function viewer(m: MemberInfo, groupIds: string[]): Viewer {
  return {
    userId: m.userId,
    email: m.email,
    organizationId: m.organizationId,
    groupIds,
    role: m.role,
    language: m.locale,
  };
}

/** With `signedIn`, the story's admin is that (already existing) member and the story is told in their organisation. */
export async function setUpEvidenceStory(
  database: Database,
  now = new Date(),
  signedIn?: MemberInfo,
): Promise<EvidenceStory> {
  const ana = signedIn ?? memberInfo({ role: "admin", name: "Ana Admin" });
  const org = ana.organizationId;
  const inA = { organizationId: org, organizationName: ana.organizationName };
  const bea = memberInfo({
    ...inA,
    userId: "user-bea",
    email: "bea@org-a.example",
    name: "Bea Legal",
    memberId: "member-bea",
  });
  const carl = memberInfo({
    ...inA,
    userId: "user-carl",
    email: "carl@org-a.example",
    name: "Carl",
    memberId: "member-carl",
  });
  const olga = memberInfo({
    userId: "user-olga",
    email: "olga@org-b.example",
    name: "Olga",
    memberId: "member-olga",
    organizationId: "org-b",
    organizationName: "Org B",
    role: "admin",
    locale: "en",
  });
  if (!signedIn) await ensureUser(database, ana, "admin");
  await ensureUser(database, bea, "member");
  await ensureUser(database, carl, "member");
  await ensureUser(database, olga, "admin");
  const team = "team-legal";
  await database.rows(
    sql`insert into auth_team (id, name, organization_id, created_at) values (${team}, 'Legal', ${org}, now())`,
  );
  await database.rows(
    sql`insert into auth_team_member (id, team_id, user_id, created_at) values ('tm-bea', ${team}, ${bea.userId}, now())`,
  );

  const dates = {
    published: day(-20, now),
    effective: day(30, now),
    triageDue: day(10, now),
    obligationDue: [day(14, now), day(21, now)] as [string, string],
  };
  const boeDocumentId = await insertDocument(database, {
    source: "boe",
    sourceId: "BOE-A-2026-1001",
    title: 'Real Decreto sobre notificación de incidentes; obligaciones, plazos y "comillas"',
    publishedOn: dates.published,
    effectiveDates: [dates.effective],
    areaIds: ["banking", "data-protection"],
  });
  const otherDocumentId = await insertDocument(database, {
    source: "boe",
    sourceId: "BOE-A-2026-1002",
    title: "Orden sin seguimiento",
    publishedOn: dates.published,
    effectiveDates: [day(40, now)],
    areaIds: ["tax"],
    relevance: "medium",
  });
  const [feed] = await database.rows<{ id: string }>(sql`insert into source_feeds (organization_id, url, name)
    values (${org}, 'https://intranet.org-a.example/rss', 'Intranet A') returning id`);
  const eurlexDocumentId = await insertDocument(database, {
    source: "eurlex",
    sourceId: "32016R0679",
    title: "Reglamento (UE) 2016/679 relativo a la protección de datos",
    publishedOn: "2016-05-04",
  });
  const feedDocumentId = await insertDocument(database, {
    source: "feed",
    sourceId: "https://intranet.org-a.example/entry-1",
    title: "Circular interna de A",
    publishedOn: dates.published,
    effectiveDates: [day(5, now)],
    areaIds: ["banking"],
    feedId: feed?.id ?? null,
  });

  // The Legal group's profile matched the BOE document: in-app and mail deliveries to Bea, her alert.
  const profileId = randomUUID();
  const matchId = randomUUID();
  await database.rows(sql`insert into alert_profiles (id, organization_id, group_id, name, email_mode)
    values (${profileId}::uuid, ${org}, ${team}, 'Legal: banca', 'immediate')`);
  await database.rows(
    sql`insert into alert_matches (id, document_id, profile_id) values (${matchId}::uuid, ${boeDocumentId}::uuid, ${profileId}::uuid)`,
  );
  const queued = new Date(now.getTime() - 19 * 86_400_000);
  const sent = new Date(queued.getTime() + 5_000);
  for (const channel of ["inapp", "email"]) {
    await database.rows(sql`insert into deliveries (id, match_key, channel, recipient, organization_id, payload, status, created_at, sent_at)
      values (${randomUUID()}::uuid, ${matchId}, ${channel}, ${bea.userId}, ${org}, '{}'::jsonb, 'sent', ${queued}, ${sent})`);
  }
  await database.rows(sql`insert into alerts (user_id, document_id, profile_id, title, created_at)
    values (${bea.userId}, ${boeDocumentId}::uuid, ${profileId}::uuid, 'Real Decreto', ${sent})`);

  // Bea opens it (a read receipt and its audit event).
  await database.db.transaction(async (tx) => {
    await recordRead(tx, bea, boeDocumentId);
    await recordAudit(tx, {
      organizationId: org,
      actor: { id: bea.userId, email: bea.email },
      action: "document.read",
      object: { type: "document", id: boeDocumentId },
    });
  });

  // Triage through the triage services (history, audit, webhook events as the pages make them):
  // Ana sets under review, then assigns Legal with a due date; Bea marks it applies and records
  // two obligations. Each at its own day of the story.
  const actor = (m: MemberInfo): TriageActor => ({
    organizationId: org,
    userId: m.userId,
    name: m.name,
    email: m.email,
  });
  const at = (offset: number) => new Date(now.getTime() + offset * 86_400_000);
  const steps: [MemberInfo, TriagePatch, number][] = [
    [ana, { status: "under_review" }, -18],
    [
      ana,
      {
        assignee: { type: "group", id: team },
        dueOn: dates.triageDue,
        impact: "high",
        rationale: "Afecta a los procesos de notificación",
      },
      -17,
    ],
    [bea, { status: "applies" }, -15],
  ];
  for (const [who, patch, offset] of steps) {
    const outcome = await updateTriage(database.db, actor(who), boeDocumentId, patch, "es", at(offset));
    if (!outcome.ok) throw new Error(`triage step failed: ${JSON.stringify(outcome)}`);
  }
  const obligationIds: string[] = [];
  const owners = [
    { type: "user" as const, id: bea.userId },
    { type: "group" as const, id: team },
  ];
  for (const [i, owner] of owners.entries()) {
    const outcome = await createObligation(
      database.db,
      actor(bea),
      boeDocumentId,
      {
        anchor: "p-0",
        title: `Obligación ${i + 1}`,
        description: "",
        owner,
        dueOn: dates.obligationDue[i] ?? null,
        status: "open",
        reference: `POL-${i + 1}`,
      },
      "es",
      at(-14 + i),
    );
    if (!outcome.ok) throw new Error(`obligation failed: ${JSON.stringify(outcome)}`);
    obligationIds.push(outcome.obligation.id);
  }
  // Notes: Bea's group note and private note, Carl's organisation note.
  const record = (tx: Parameters<typeof recordAudit>[0], event: Parameters<typeof recordAudit>[1]) =>
    recordAudit(tx, event);
  await createNote(database.db, record, viewer(bea, [team]), boeDocumentId, {
    body: "Nota del grupo Legal",
    visibility: "group",
    groupId: team,
    paragraph: null,
  });
  await createNote(database.db, record, viewer(bea, [team]), boeDocumentId, {
    body: "Nota privada de Bea",
    visibility: "private",
    groupId: null,
    paragraph: null,
  });
  await createNote(database.db, record, viewer(carl, []), boeDocumentId, {
    body: "Nota para toda la organización",
    visibility: "organization",
    groupId: null,
    paragraph: null,
  });
  return {
    ana,
    bea,
    carl,
    olga,
    boeDocumentId,
    feedDocumentId,
    eurlexDocumentId,
    otherDocumentId,
    obligationIds: [obligationIds[0] ?? "", obligationIds[1] ?? ""],
    team,
    dates,
  };
}
