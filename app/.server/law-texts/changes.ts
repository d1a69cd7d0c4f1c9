/**
 * Law changes, the unit matched against follows:
 * - `announced`: the day a daily act whose relations modify, repeal, add to or void a followed law
 *   is stored (early warning, law_announcements: "change published, consolidation pending");
 * - `consolidated`: a poll found new block versions or wordings corrected in place. When the new
 *   versions come from an announced act, the announcement is marked consolidated and the change
 *   links to the first alert (previous_change_id).
 */
import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Executor } from "../audit/executor.ts";
import type { Database } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import { alertProfiles, documentRelations, documents, lawAnnouncements, lawChanges } from "../db/schema.ts";
import { parseArticleRefs, resolveRefs } from "./articles.ts";
import type { Block } from "./model.ts";
import type { BlockWriteResult } from "./store.ts";
import { loadBlocks, registerLaw } from "./store.ts";

export interface ChangedBlockDetail {
  blockId: string;
  title: string;
  normId: string;
  publishedOn: string;
  inForceOn: string | null;
  /** The new wording (plain text). */
  text: string;
  corrected: boolean;
}

/**
 * Records a consolidated change from given writes; null when nothing changed. The law sources
 * record from what they stored instead (recordPendingChange); this is the benchmark's way in.
 */
export async function recordConsolidatedChange(
  database: Database,
  lawId: string,
  writes: BlockWriteResult[],
): Promise<string | null> {
  const blocks = new Map((await loadBlocks(database, lawId)).map((b) => [b.blockId, b]));
  const details = detailsOfWrites(writes, blocks);
  if (details.length === 0) return null;
  return database.db.transaction((tx) => insertConsolidatedChange(tx, lawId, details, blocks));
}

/**
 * Records the consolidated change of a law's versions a poll wrote and marked unreported (every
 * block's own transaction, law-texts/store.ts writeBlock), and clears the marks, in one
 * transaction; null when none is marked. The law's row is locked first: two callers (a poll and a
 * start finishing what a killed process left) record one change, the second finds no mark.
 */
export async function recordPendingChange(database: Database, lawId: string): Promise<string | null> {
  const blocks = new Map((await loadBlocks(database, lawId)).map((b) => [b.blockId, b]));
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select id from laws where id = ${lawId} for update`);
    const rows = await rowsOf<{
      block_id: string;
      norm_id: string;
      published_on: string;
      in_force_on: string | null;
      text: string;
      unreported: string;
    }>(
      tx,
      sql`select block_id, norm_id, published_on::text as published_on, in_force_on::text as in_force_on, text, unreported
        from law_block_versions where law_id = ${lawId} and unreported is not null
        order by block_id, published_on, norm_id`,
    );
    if (rows.length === 0) return null;
    const details: ChangedBlockDetail[] = rows
      .map((row) => ({
        blockId: row.block_id,
        title: blocks.get(row.block_id)?.title ?? row.block_id,
        normId: row.norm_id,
        publishedOn: row.published_on,
        inForceOn: row.in_force_on,
        text: row.text,
        corrected: row.unreported === "corrected",
      }))
      .sort((a, b) => (blocks.get(a.blockId)?.position ?? 0) - (blocks.get(b.blockId)?.position ?? 0));
    const changeId = await insertConsolidatedChange(tx, lawId, details, blocks);
    await tx.execute(
      sql`update law_block_versions set unreported = null where law_id = ${lawId} and unreported is not null`,
    );
    return changeId;
  });
}

/** The laws with versions written and not yet recorded as a change (a poll killed between the two). */
export async function lawsWithPendingChanges(database: Database): Promise<string[]> {
  const rows = await database.rows<{ law_id: string }>(
    sql`select distinct law_id from law_block_versions where unreported is not null order by law_id`,
  );
  return rows.map((row) => row.law_id);
}

function detailsOfWrites(writes: BlockWriteResult[], blocks: Map<string, Block>): ChangedBlockDetail[] {
  const details: ChangedBlockDetail[] = [];
  for (const write of writes) {
    const title = blocks.get(write.blockId)?.title ?? write.blockId;
    for (const v of write.added)
      details.push({
        blockId: write.blockId,
        title,
        normId: v.normId,
        publishedOn: v.publishedOn,
        inForceOn: v.inForceOn,
        text: v.text,
        corrected: false,
      });
    for (const v of write.corrected)
      details.push({
        blockId: write.blockId,
        title,
        normId: v.normId,
        publishedOn: v.publishedOn,
        inForceOn: v.inForceOn,
        text: v.text,
        corrected: true,
      });
  }
  return details;
}

/**
 * The change row (waiting for its matching: match_pending) and the announcements it answers, in the
 * caller's transaction.
 */
async function insertConsolidatedChange(
  tx: Executor,
  lawId: string,
  details: ChangedBlockDetail[],
  blocks: Map<string, Block>,
): Promise<string> {
  const blockIds = [...new Set(details.map((d) => d.blockId))].sort(
    (a, b) => (blocks.get(a)?.position ?? 0) - (blocks.get(b)?.position ?? 0),
  );
  const norms = [...new Set(details.filter((d) => !d.corrected).map((d) => d.normId))];
  const publishedOn = details.reduce((max, d) => (d.publishedOn > max ? d.publishedOn : max), "0000-00-00");
  // The announcements this consolidation answers: their acts gave the new versions.
  const answered = norms.length
    ? await tx
        .update(lawAnnouncements)
        .set({ consolidatedAt: new Date() })
        .where(
          and(
            eq(lawAnnouncements.lawId, lawId),
            inArray(lawAnnouncements.actId, norms),
            isNull(lawAnnouncements.consolidatedAt),
          ),
        )
        .returning({ id: lawAnnouncements.id, firstAlertId: lawAnnouncements.firstAlertId })
    : [];
  const first = answered[0];
  const [row] = await tx
    .insert(lawChanges)
    .values({
      lawId,
      kind: "consolidated",
      normId: norms[0] ?? details[0]?.normId ?? null,
      publishedOn,
      blockIds,
      announcementId: first?.id ?? null,
      previousChangeId: first?.firstAlertId ?? null,
      details: { blocks: details, norms },
      matchPending: true,
    })
    .returning({ id: lawChanges.id });
  return (row as { id: string }).id;
}

/** Relation types (sources/boe/document.ts) and verbs that announce a change to the target law. */
const CHANGE_TYPES = new Set(["modifies", "adds", "removes", "repeals"]);
/** Cellar's relation codes of an EU act (sources/eurlex/relations.ts) that announce a change (corrections, as the BOE's, do not). */
const EU_CHANGE_CODES = new Set(["amends", "repeals"]);
const CHANGE_VERBS =
  /^(MODIFICA|DEROGA|AÑADE|SUPRIME|ANULA|DECLARA\s+(LA\s+)?(NULIDAD|NULO|INCONSTITUCIONAL)|DA NUEVA REDACCI)/i;

export interface Announcement {
  id: string;
  lawId: string;
  changeId: string;
  blockIds: string[];
}

/**
 * Early warning: a stored daily act's relations that change a followed law become announcements
 * and `announced` changes (once per law and act). Returns the new ones (to be matched).
 */
export async function announceFromDocument(database: Database, documentId: string): Promise<Announcement[]> {
  const [document] = await database.db
    .select({
      id: documents.id,
      source: documents.source,
      sourceId: documents.sourceId,
      publishedOn: documents.publishedOn,
    })
    .from(documents)
    .where(eq(documents.id, documentId));
  // BOE acts (their analysis) and EU acts (Cellar's amends/repeals/corrects, issue 39).
  if (document?.source !== "boe" && document?.source !== "eurlex") return [];
  const lawSource = document.source === "boe" ? "boe" : "eu";
  const followed = database.db
    .selectDistinct({ lawId: alertProfiles.lawId })
    .from(alertProfiles)
    .where(isNotNull(alertProfiles.lawId));
  const relations = await database.db
    .select()
    .from(documentRelations)
    .where(
      and(
        eq(documentRelations.documentId, documentId),
        eq(documentRelations.direction, "earlier"),
        inArray(documentRelations.targetSourceId, followed),
      ),
    );
  const out: Announcement[] = [];
  for (const relation of relations) {
    const verb = relation.label.trim();
    if (
      lawSource === "eu"
        ? !EU_CHANGE_CODES.has(relation.code ?? "")
        : !CHANGE_TYPES.has(relation.type) && !CHANGE_VERBS.test(verb)
    )
      continue;
    const lawId = relation.targetSourceId;
    await registerLaw(database, lawId, lawSource);
    const refs = parseArticleRefs(verb);
    const blockIds = resolveRefs(refs, await loadBlocks(database, lawId));
    const publishedOn = String(document.publishedOn ?? new Date().toISOString().slice(0, 10));
    const created = await database.db.transaction(async (tx) => {
      const [announcement] = await tx
        .insert(lawAnnouncements)
        .values({
          lawId,
          documentId,
          actId: document.sourceId,
          relationCode: relation.code,
          relation: relation.type,
          relationText: verb,
          articles: blockIds,
          publishedOn,
        })
        .onConflictDoNothing()
        .returning({ id: lawAnnouncements.id });
      if (!announcement) return undefined;
      const [change] = await tx
        .insert(lawChanges)
        .values({
          lawId,
          kind: "announced",
          normId: document.sourceId,
          publishedOn,
          blockIds,
          announcementId: announcement.id,
          details: { documentId, relation: verb, refs: refs.map((r) => `${r.kind}:${r.name}`) },
        })
        .returning({ id: lawChanges.id });
      const changeId = (change as { id: string }).id;
      await tx.update(lawAnnouncements).set({ firstAlertId: changeId }).where(eq(lawAnnouncements.id, announcement.id));
      return { id: announcement.id, lawId, changeId, blockIds };
    });
    if (created) out.push(created);
  }
  return out;
}

/** Pending announcements of a law ("change published, consolidation pending"). */
export async function pendingAnnouncements(database: Database, lawId: string) {
  return database.db
    .select()
    .from(lawAnnouncements)
    .where(and(eq(lawAnnouncements.lawId, lawId), isNull(lawAnnouncements.consolidatedAt)))
    .orderBy(sql`${lawAnnouncements.publishedOn} desc`);
}
