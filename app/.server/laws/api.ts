/**
 * What the laws API answers (api/operations/laws.ts), read from the store, for the laws the
 * caller's organisation follows only (reach.ts, decision 0124).
 */
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { lawAnnouncements, laws, team } from "../db/schema.ts";
import { textAt, versionsOf } from "../law-texts/model.ts";
import { loadBlocks, loadLawText, loadVersionRows } from "../law-texts/store.ts";
import { followedBy, lawStateOf, nextLawCheck, organisationFollowsLaw } from "./reach.ts";

export function attribution(updatedAt: string | null, source: "boe" | "eu"): string {
  const origin = source === "eu" ? "EUR-Lex, © Unión Europea" : "Agencia Estatal Boletín Oficial del Estado";
  return `Fuente: ${origin}${updatedAt ? `; última actualización ${updatedAt}` : ""}`;
}

const iso = (d: Date | null) => (d ? d.toISOString().replace(/\.\d{3}Z$/, "Z") : null);

/** The laws the organisation follows (reach.ts: no other organisation's follow shows here). */
export async function listLaws(database: Database, organizationId: string) {
  const rows = await database.rows<{
    id: string;
    source: string;
    title: string;
    eli: string | null;
    metadata: unknown;
    updated_at: Date | string | null;
    blocks: number | string;
    pending: number | string;
  }>(sql`
    select laws.id, laws.source, laws.title, laws.eli, laws.metadata, laws.updated_at,
      (select count(*) from law_blocks b where b.law_id = laws.id) as blocks,
      (select count(*) from law_announcements a where a.law_id = laws.id and a.consolidated_at is null) as pending
    from laws where ${followedBy(organizationId)} order by laws.title, laws.id`);
  return rows.map((r) => ({
    id: r.id,
    source: r.source === "eu" ? ("eu" as const) : ("boe" as const),
    title: r.title,
    eli: r.eli,
    state: lawStateOf(r.metadata, Number(r.blocks)),
    updatedAt: r.updated_at ? iso(new Date(r.updated_at)) : null,
    blocks: Number(r.blocks),
    pendingAnnouncements: Number(r.pending),
  }));
}

/**
 * A law the organisation follows, with its blocks; a law not fetched yet says so (`state`
 * pending, no blocks, the source's next check) rather than failing. Undefined outside its reach.
 */
export async function lawDetail(
  database: Database,
  organizationId: string,
  lawId: string,
  options: { ingesting: boolean; now?: Date } = { ingesting: true },
) {
  if (!(await organisationFollowsLaw(database, organizationId, lawId))) return undefined;
  const text = await loadLawText(database, lawId);
  if (!text) return undefined;
  const [checked] = await database.db.select({ checkedAt: laws.checkedAt }).from(laws).where(eq(laws.id, lawId));
  const state = lawStateOf(text.law.metadata, text.blocks.length);
  const next = state === "pending" ? nextLawCheck(text.law.source, options.ingesting, options.now) : null;
  const announcements = await database.db
    .select()
    .from(lawAnnouncements)
    .where(eq(lawAnnouncements.lawId, lawId))
    .orderBy(asc(lawAnnouncements.publishedOn));
  const blockList = text.blocks.map((block) => {
    const sorted = versionsOf(block);
    const last = [...sorted].sort((a, b) => a.publishedOn.localeCompare(b.publishedOn)).at(-1);
    return {
      blockId: block.blockId,
      kind: block.kind,
      title: block.title,
      position: block.position,
      latestDate: block.latestDate,
      expiresOn: block.expiresOn ?? null,
      versions: sorted.length,
      lastChange: last ? { normId: last.normId, publishedOn: last.publishedOn, inForceOn: last.inForceOn } : null,
    };
  });
  const updatedAt = text.law.updatedAt ? text.law.updatedAt.replace(/\.\d{3}Z$/, "Z") : null;
  return {
    id: text.law.id,
    source: text.law.source,
    title: text.law.title,
    eli: text.law.eli,
    state,
    updatedAt,
    checkedAt: iso(checked?.checkedAt ?? null),
    nextCheckAt: iso(next),
    blocks: blockList.length,
    pendingAnnouncements: announcements.filter((a) => a.consolidatedAt === null).length,
    metadata: text.law.metadata,
    attribution: attribution(updatedAt, text.law.source),
    blockList,
    announcements: announcements.map((a) => ({
      actId: a.actId,
      documentId: a.documentId,
      relation: a.relationText,
      articles: a.articles,
      publishedOn: a.publishedOn,
      consolidatedAt: iso(a.consolidatedAt),
    })),
  };
}

export async function blockVersions(database: Database, organizationId: string, lawId: string, blockId: string) {
  if (!(await organisationFollowsLaw(database, organizationId, lawId))) return undefined;
  const detail = (await loadBlocks(database, lawId)).find((b) => b.blockId === blockId);
  if (!detail) return undefined;
  const rows = await loadVersionRows(database, lawId, blockId);
  const versions = versionsOf({ versions: rows }).map((v) => ({
    normId: v.normId,
    publishedOn: v.publishedOn,
    inForceOn: v.inForceOn,
    text: v.text,
    html: v.html,
    hash: v.hash,
    correctedAt: iso(v.correctedAt),
    provenance: { url: v.sourceUrl, fetchedAt: iso(v.fetchedAt) ?? "", sha256: v.payloadHash },
  }));
  const last = [...versions].sort((a, b) => a.publishedOn.localeCompare(b.publishedOn)).at(-1);
  return {
    block: {
      blockId: detail.blockId,
      kind: detail.kind,
      title: detail.title,
      position: detail.position,
      latestDate: detail.latestDate,
      expiresOn: detail.expiresOn ?? null,
      versions: versions.length,
      lastChange: last ? { normId: last.normId, publishedOn: last.publishedOn, inForceOn: last.inForceOn } : null,
    },
    versions,
  };
}

export async function lawTextAt(database: Database, organizationId: string, lawId: string, date: string) {
  if (!(await organisationFollowsLaw(database, organizationId, lawId))) return undefined;
  const text = await loadLawText(database, lawId);
  if (!text) return undefined;
  const ref = (v: { normId: string; publishedOn: string; inForceOn: string | null }) => ({
    normId: v.normId,
    publishedOn: v.publishedOn,
    inForceOn: v.inForceOn,
  });
  const updatedAt = text.law.updatedAt ? text.law.updatedAt.replace(/\.\d{3}Z$/, "Z") : null;
  return {
    lawId,
    date,
    attribution: attribution(updatedAt, text.law.source),
    blocks: textAt(text, date).map((at) => ({
      blockId: at.block.blockId,
      kind: at.block.kind,
      title: at.block.title,
      version: ref(at.version),
      text: at.version.text,
      pending: at.pending.map(ref),
    })),
  };
}

/** True when the group is one of the organisation's. */
export async function groupOfOrganisation(
  database: Database,
  organizationId: string,
  groupId: string,
): Promise<boolean> {
  const rows = await database.db
    .select({ n: count() })
    .from(team)
    .where(and(eq(team.id, groupId), eq(team.organizationId, organizationId)));
  return Number(rows[0]?.n ?? 0) > 0;
}
