/**
 * Reading and writing followed laws: the law row, its blocks (text order, index date, expiry) and
 * every version with its provenance. Writing a block compares text, not only the list of versions:
 * a version with the same norm and dates but another text is a correction in place (updated, with
 * corrected_at), a new (norm, date) is a new version. Both are reported so the caller can match them.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { lawBlocks, lawBlockVersions, lawChanges, laws } from "../db/schema.ts";
import { openAnchoredReviews } from "../triage/law-anchors.ts";
import type { Block, BlockVersion, Law, LawText } from "./model.ts";

export interface StoredBlockInput {
  blockId: string;
  kind: string;
  title: string;
  position: number;
  latestDate: string;
  expiresOn: string | null;
  versions: Array<Omit<BlockVersion, "lawId" | "blockId">>;
  provenance: { url: string; fetchedAt: string; sha256: string };
  /**
   * The versions added or corrected here are to be reported as a law change (a poll of a law fetched
   * before; not its first fetch): marked `unreported` in this transaction, so a process killed
   * before the change is recorded leaves them for the next poll or start (recordPendingChange).
   */
  report?: boolean;
}

export interface BlockWriteResult {
  blockId: string;
  added: Array<Omit<BlockVersion, "lawId" | "blockId">>;
  corrected: Array<Omit<BlockVersion, "lawId" | "blockId"> & { previousHash: string }>;
}

export async function upsertLaw(database: Database, law: Law): Promise<void> {
  await database.db
    .insert(laws)
    .values({
      id: law.id,
      source: law.source,
      title: law.title,
      eli: law.eli,
      metadata: law.metadata,
      updatedAt: law.updatedAt ? new Date(law.updatedAt) : null,
    })
    .onConflictDoUpdate({
      target: laws.id,
      set: {
        title: law.title,
        eli: law.eli,
        metadata: law.metadata,
        updatedAt: law.updatedAt ? new Date(law.updatedAt) : null,
      },
    });
}

/** Registers a law to follow before its first fetch (title unknown yet: its id). */
export async function registerLaw(database: Database, id: string, source: "boe" | "eu"): Promise<void> {
  await database.db.insert(laws).values({ id, source, title: id }).onConflictDoNothing();
}

/**
 * The source answered that it does not know a law never fetched (BOE: 404 on the law and its
 * metadatos): recorded in its metadata, so follows of the id are refused from then on and its page
 * says so. A later fetch (upsertLaw) replaces the metadata and with it the mark.
 */
export async function markMissing(database: Database, lawId: string, at: Date = new Date()): Promise<void> {
  await database.db
    .update(laws)
    .set({
      checkedAt: at,
      metadata: sql`${laws.metadata} || ${JSON.stringify({ sourceMissingAt: at.toISOString() })}::jsonb`,
    })
    .where(eq(laws.id, lawId));
}

export async function markChecked(database: Database, lawId: string, indexHash?: string, at?: Date): Promise<void> {
  await database.db
    .update(laws)
    .set({ checkedAt: at ?? new Date(), ...(indexHash ? { indexHash } : {}) })
    .where(eq(laws.id, lawId));
}

/** Writes one block and its versions; returns the versions added and the ones corrected in place. */
export async function writeBlock(
  database: Database,
  lawId: string,
  input: StoredBlockInput,
): Promise<BlockWriteResult> {
  return database.db.transaction(async (tx) => {
    await tx
      .insert(lawBlocks)
      .values({
        lawId,
        blockId: input.blockId,
        kind: input.kind,
        title: input.title,
        position: input.position,
        latestDate: input.latestDate,
        expiresOn: input.expiresOn,
        payloadHash: input.provenance.sha256,
      })
      .onConflictDoUpdate({
        target: [lawBlocks.lawId, lawBlocks.blockId],
        set: {
          kind: input.kind,
          title: input.title,
          position: input.position,
          latestDate: input.latestDate,
          expiresOn: input.expiresOn,
          payloadHash: input.provenance.sha256,
        },
      });
    const existing = await tx
      .select({
        normId: lawBlockVersions.normId,
        publishedOn: lawBlockVersions.publishedOn,
        hash: lawBlockVersions.hash,
      })
      .from(lawBlockVersions)
      .where(and(eq(lawBlockVersions.lawId, lawId), eq(lawBlockVersions.blockId, input.blockId)));
    const known = new Map(existing.map((row) => [`${row.normId}|${row.publishedOn}`, row.hash]));
    const result: BlockWriteResult = { blockId: input.blockId, added: [], corrected: [] };
    const fetchedAt = new Date(input.provenance.fetchedAt);
    for (const version of input.versions) {
      const key = `${version.normId}|${version.publishedOn}`;
      const previous = known.get(key);
      if (previous === version.hash) continue;
      if (previous === undefined) {
        await tx.insert(lawBlockVersions).values({
          lawId,
          blockId: input.blockId,
          ...version,
          sourceUrl: input.provenance.url,
          fetchedAt,
          payloadHash: input.provenance.sha256,
          unreported: input.report ? "added" : null,
        });
        result.added.push(version);
      } else {
        await tx
          .update(lawBlockVersions)
          .set({
            html: version.html,
            text: version.text,
            hash: version.hash,
            inForceOn: version.inForceOn,
            sourceUrl: input.provenance.url,
            fetchedAt,
            payloadHash: input.provenance.sha256,
            correctedAt: new Date(),
            // A version added and not yet reported stays "added" (its newest wording is what is reported).
            ...(input.report ? { unreported: sql`coalesce(${lawBlockVersions.unreported}, 'corrected')` } : {}),
          })
          .where(
            and(
              eq(lawBlockVersions.lawId, lawId),
              eq(lawBlockVersions.blockId, input.blockId),
              eq(lawBlockVersions.normId, version.normId),
              eq(lawBlockVersions.publishedOn, version.publishedOn),
            ),
          );
        result.corrected.push({ ...version, previousHash: previous });
      }
    }
    // Obligations anchored to this article go to review in the transaction that wrote its new wording.
    if (result.added.length > 0 || result.corrected.length > 0) await openAnchoredReviews(tx, lawId, [input.blockId]);
    return result;
  });
}

/** Index order and titles as the source lists them now (blocks no longer listed keep their rows). */
export async function updatePositions(
  database: Database,
  lawId: string,
  entries: Array<{ blockId: string; title: string; position: number }>,
): Promise<void> {
  if (entries.length === 0) return;
  const json = JSON.stringify(entries.map((e) => ({ b: e.blockId, t: e.title, p: e.position })));
  await database.rows(sql`
    update law_blocks set position = (r->>'p')::int, title = case when r->>'t' <> '' then r->>'t' else law_blocks.title end
    from jsonb_array_elements(${json}::jsonb) r
    where law_blocks.law_id = ${lawId} and law_blocks.block_id = r->>'b'`);
}

export async function loadLaw(database: Database, lawId: string): Promise<Law | undefined> {
  const [row] = await database.db.select().from(laws).where(eq(laws.id, lawId));
  if (!row) return undefined;
  return {
    id: row.id,
    source: row.source === "eu" ? "eu" : "boe",
    title: row.title,
    eli: row.eli,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    updatedAt: row.updatedAt ? row.updatedAt.toISOString() : null,
  };
}

export async function loadBlocks(database: Database, lawId: string): Promise<Block[]> {
  const rows = await database.db
    .select()
    .from(lawBlocks)
    .where(eq(lawBlocks.lawId, lawId))
    .orderBy(asc(lawBlocks.position));
  return rows.map((row) => ({
    lawId: row.lawId,
    blockId: row.blockId,
    kind: row.kind,
    title: row.title,
    position: row.position,
    latestDate: row.latestDate,
    expiresOn: row.expiresOn,
  }));
}

const toVersion = (row: typeof lawBlockVersions.$inferSelect): BlockVersion => ({
  lawId: row.lawId,
  blockId: row.blockId,
  normId: row.normId,
  publishedOn: row.publishedOn,
  inForceOn: row.inForceOn,
  html: row.html,
  text: row.text,
  hash: row.hash,
});

export async function loadVersions(database: Database, lawId: string, blockId?: string): Promise<BlockVersion[]> {
  const rows = await database.db
    .select()
    .from(lawBlockVersions)
    .where(
      blockId
        ? and(eq(lawBlockVersions.lawId, lawId), eq(lawBlockVersions.blockId, blockId))
        : eq(lawBlockVersions.lawId, lawId),
    );
  return rows.map(toVersion);
}

/** Versions with their provenance (API, law page). */
export async function loadVersionRows(database: Database, lawId: string, blockId: string) {
  return database.db
    .select()
    .from(lawBlockVersions)
    .where(and(eq(lawBlockVersions.lawId, lawId), eq(lawBlockVersions.blockId, blockId)));
}

/** The whole law with every block's versions (textAt, the page). */
export async function loadLawText(database: Database, lawId: string): Promise<LawText | undefined> {
  const law = await loadLaw(database, lawId);
  if (!law) return undefined;
  const [blocks, versions] = await Promise.all([loadBlocks(database, lawId), loadVersions(database, lawId)]);
  const byBlock = new Map<string, BlockVersion[]>();
  for (const v of versions) {
    const list = byBlock.get(v.blockId) ?? [];
    list.push(v);
    byBlock.set(v.blockId, list);
  }
  return { law, blocks: blocks.map((b) => ({ ...b, versions: byBlock.get(b.blockId) ?? [] })) };
}

/**
 * Where a law change's alert leads: its law's page at that change (the alerts list and the
 * notification centre link every alert to /app/documents/{id}; a law alert's id is the change's).
 */
export async function lawChangePath(database: Database, changeId: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(changeId)) return undefined;
  const [change] = await database.db
    .select({ lawId: lawChanges.lawId })
    .from(lawChanges)
    .where(eq(lawChanges.id, changeId));
  return change ? `/app/laws/${encodeURIComponent(change.lawId)}?change=${encodeURIComponent(changeId)}` : undefined;
}
