/**
 * A law poll's writes marked until their change is recorded (decision 0162), on PGlite and
 * PostgreSQL: a first fetch marks nothing; a new version is marked `added` (and stays so when its
 * wording is corrected before it is reported), a wording corrected in place `corrected`; six
 * callers recording at once record one change, with what was stored, and clear the marks; the
 * finish step (finishLawAlerts, run by every start and poll) run twice at once matches the change
 * once and alerts the follower once.
 */
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import { type ChangedBlockDetail, recordPendingChange } from "../../app/.server/law-texts/changes.ts";
import { type StoredBlockInput, upsertLaw, writeBlock } from "../../app/.server/law-texts/store.ts";
import { finishLawAlerts } from "../../app/.server/laws/service.ts";
import { memoryDirectory, openMigrated } from "../support/alerts-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";

const LAW = "BOE-A-2099-1";
const provenance = { url: "https://www.boe.es/test", fetchedAt: "2099-01-01T10:00:00Z", sha256: "0".repeat(64) };
const version = (normId: string, publishedOn: string, text: string) => ({
  normId,
  publishedOn,
  inForceOn: null,
  html: `<p>${text}</p>`,
  text,
  hash: `${normId}:${text}`,
});
const block = (
  blockId: string,
  position: number,
  versions: StoredBlockInput["versions"],
  report: boolean,
): StoredBlockInput => ({
  blockId,
  kind: "precepto",
  title: `Artículo ${position + 1}`,
  position,
  latestDate: versions.reduce((max, v) => (v.publishedOn > max ? v.publishedOn : max), "0000-00-00"),
  expiresOn: null,
  versions,
  provenance,
  report,
});

const marks = (database: Database) =>
  database.rows<{ block_id: string; norm_id: string; unreported: string }>(
    sql`select block_id, norm_id, unreported from law_block_versions
      where law_id = ${LAW} and unreported is not null order by block_id, norm_id`,
  );

describe.each(databaseTargets())("a law poll's writes marked until reported ($name)", (target) => {
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
    await target.cleanup();
  });

  it("records one change from the marks, however many callers, and alerts once", async () => {
    const db = await openMigrated(await target.create());
    database = db;
    await upsertLaw(db, { id: LAW, source: "boe", title: "Ley de prueba", eli: null, metadata: {}, updatedAt: null });
    await db.rows(sql`insert into auth_organization (id, name, slug, created_at) values ('org', 'org', 'org', now())`);
    await db.rows(sql`insert into auth_user (id, name, email) values ('u1', 'u1', 'u1@org.example')`);
    await db.rows(sql`insert into alert_profiles (id, organization_id, user_id, name, email_mode, law_id)
      values (gen_random_uuid(), 'org', 'u1', 'Ley de prueba', 'off', ${LAW})`);
    const original = version(LAW, "2099-01-01", "Texto original del uno.");
    // The first fetch: nothing to report.
    await writeBlock(db, LAW, block("a1", 0, [original], false));
    await writeBlock(db, LAW, block("a2", 1, [version(LAW, "2099-01-01", "Texto original del dos.")], false));
    expect(await marks(db)).toEqual([]);
    expect(await recordPendingChange(db, LAW)).toBeNull();

    // A later poll: a1 gets a new version (then its wording corrected before anything is reported),
    // a2's wording is corrected in place.
    await writeBlock(db, LAW, block("a1", 0, [original, version("BOE-A-2099-7", "2099-02-01", "Nuevo uno.")], true));
    await writeBlock(
      db,
      LAW,
      block("a1", 0, [original, version("BOE-A-2099-7", "2099-02-01", "Nuevo uno, bien.")], true),
    );
    await writeBlock(db, LAW, block("a2", 1, [version(LAW, "2099-01-01", "Texto corregido del dos.")], true));
    expect(await marks(db)).toEqual([
      { block_id: "a1", norm_id: "BOE-A-2099-7", unreported: "added" },
      { block_id: "a2", norm_id: LAW, unreported: "corrected" },
    ]);

    // Several callers at once (a poll and starts of other instances), each on its own connection
    // (PostgreSQL: the pool's connections opened first, so that none finishes before the others start).
    await Promise.all(Array.from({ length: 6 }, () => db.rows(sql`select pg_sleep(0.05)`)));
    const recorded = await Promise.all(Array.from({ length: 6 }, () => recordPendingChange(db, LAW)));
    expect(recorded.filter(Boolean)).toHaveLength(1);
    expect(await marks(db)).toEqual([]);
    const changes = await db.rows<{
      id: string;
      norm_id: string;
      block_ids: string[];
      match_pending: boolean;
      details: { blocks: ChangedBlockDetail[] };
    }>(sql`select id::text as id, norm_id, block_ids, match_pending, details from law_changes where law_id = ${LAW}`);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ norm_id: "BOE-A-2099-7", block_ids: ["a1", "a2"], match_pending: true });
    expect(
      changes[0]?.details.blocks.map((b) => ({ blockId: b.blockId, text: b.text, corrected: b.corrected })),
    ).toEqual([
      { blockId: "a1", text: "Nuevo uno, bien.", corrected: false },
      { blockId: "a2", text: "Texto corregido del dos.", corrected: true },
    ]);

    // Two starts finishing at once: matched once, one in-app delivery for the follower.
    const directory = memoryDirectory([{ userId: "u1", email: "u1@org.example", language: "es" }], {});
    const finished = await Promise.all([finishLawAlerts(db, directory), finishLawAlerts(db, directory)]);
    expect(finished.reduce((sum, f) => sum + f.changes, 0)).toBe(0);
    expect(finished.reduce((sum, f) => sum + f.deliveries, 0)).toBe(1);
    const [after] = await db.rows<{ pending: number; matches: number; deliveries: number }>(sql`select
      (select count(*)::int from law_changes where match_pending) as pending,
      (select count(*)::int from alert_matches where document_id = ${changes[0]?.id}::uuid) as matches,
      (select count(*)::int from deliveries where channel = 'inapp' and recipient = 'u1') as deliveries`);
    expect(after).toEqual({ pending: 0, matches: 1, deliveries: 1 });
    expect(await finishLawAlerts(db, directory)).toEqual({ changes: 0, matched: 0, deliveries: 0 });
  });
});
