/**
 * The generic outbox (app/.server/kernel/outbox.ts) on a table of its own, on PGlite and on
 * PostgreSQL: concurrent claimers never send a row twice, an expired lease is claimed again,
 * failures back off with jitter, a row is dead after maxAttempts, and retryDead brings it back.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { createOutbox, createOutboxLoop, type OutboxRow } from "../../app/.server/kernel/outbox.ts";
import { databaseTargets } from "../support/postgres.ts";

const silent = { info() {}, warn() {}, error() {} };
const settings = { retryBaseMs: 1000, retryMaxMs: 60_000, maxAttempts: 3, leaseMs: 60_000, batchSize: 5 };

interface Row extends OutboxRow {
  body: string;
}

async function openWithTable(url: string | undefined): Promise<Database> {
  const database = await openDatabase({ databaseUrl: url });
  await database.rows(sql`
    create table if not exists test_outbox (
      id uuid primary key, body text not null,
      status text not null default 'pending', attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(), lease_until timestamptz,
      last_error text, sent_at timestamptz)`);
  return database;
}

async function insertRows(database: Database, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  for (const id of ids) await database.rows(sql`insert into test_outbox (id, body) values (${id}, ${`body ${id}`})`);
  return ids;
}

const state = (database: Database, id: string) =>
  database
    .rows<{ status: string; attempts: number; last_error: string | null; wait_ms: number | null }>(sql`
      select status, attempts, last_error,
        (extract(epoch from (next_attempt_at - now())) * 1000)::float8 as wait_ms
      from test_outbox where id = ${id}`)
    .then((rows) => rows[0]);

function outboxOn(database: Database, send: (row: Row) => Promise<void>, overrides: Partial<typeof settings> = {}) {
  return createOutbox<Row>({
    database,
    table: "test_outbox",
    columns: ["body"],
    settings: { ...settings, ...overrides },
    log: silent,
    what: "test row",
    send,
  });
}

for (const target of databaseTargets()) {
  describe(`the generic outbox on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it("never sends a row twice with concurrent claimers, and sends them all", async () => {
      const url = await target.create();
      const a = await openWithTable(url);
      // PostgreSQL: a second pool, as a second instance; PGlite: the same database, interleaved claimers.
      const b = url ? await openWithTable(url) : a;
      try {
        const ids = await insertRows(a, 60);
        const sent: string[] = [];
        const send = async (row: Row) => {
          sent.push(row.id);
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
        };
        const claimers = [outboxOn(a, send), outboxOn(b, send), outboxOn(a, send), outboxOn(b, send)];
        const handled = await Promise.all(claimers.map((outbox) => outbox.drain()));
        expect(handled.reduce((x, y) => x + y, 0)).toBe(60);
        expect(new Set(sent).size).toBe(sent.length);
        expect([...sent].sort()).toEqual([...ids].sort());
        const left = await a.rows<{ n: number }>(
          sql`select count(*)::int as n from test_outbox where status <> 'sent' or sent_at is null`,
        );
        expect(left[0]?.n).toBe(0);
      } finally {
        if (b !== a) await b.close();
        await a.close();
      }
    }, 60_000);

    it("claims a row again once its lease expired (a crashed instance's), with one more attempt", async () => {
      const database = await openWithTable(await target.create());
      try {
        const [id = ""] = await insertRows(database, 1);
        const crashed = outboxOn(database, async () => {}, { leaseMs: 300 });
        const claimed = await crashed.claim();
        expect(claimed.map((row) => row.id)).toEqual([id]);
        // Held: nobody else takes it while the lease runs.
        expect(await crashed.claim()).toEqual([]);
        await expect
          .poll(async () => (await crashed.claim()).map((row) => [row.id, row.attempts]), {
            timeout: 10_000,
            interval: 100,
          })
          .toEqual([[id, 2]]);
        expect((await state(database, id))?.status).toBe("sending");
      } finally {
        await database.close();
      }
    }, 60_000);

    it("backs off with jitter after a failure, is dead after maxAttempts, and retryDead brings it back", async () => {
      const database = await openWithTable(await target.create());
      try {
        const ids = await insertRows(database, 4);
        let failing = true;
        const sent: string[] = [];
        const outbox = outboxOn(database, async (row) => {
          if (failing) throw new Error(`refused ${row.body.length}`);
          sent.push(row.id);
        });
        // Attempt 1 fails: pending again, next attempt within [base/2, base] from now, not all equal (jitter).
        expect(await outbox.drain()).toBe(4);
        const waits: number[] = [];
        for (const id of ids) {
          const row = await state(database, id);
          expect(row).toMatchObject({ status: "pending", attempts: 1, last_error: "refused 41" });
          waits.push(row?.wait_ms ?? 0);
        }
        for (const wait of waits) {
          // At least base/2 after the failure (less the time since, under 1 s even on a busy machine).
          expect(wait).toBeGreaterThan(500 - 1000);
          expect(wait).toBeLessThanOrEqual(1000);
        }
        expect(new Set(waits.map((w) => Math.round(w))).size).toBeGreaterThan(1);
        // Attempt 2: due now (as if the wait were over); its delay is twice as long.
        await database.rows(sql`update test_outbox set next_attempt_at = now()`);
        await outbox.drain();
        for (const id of ids) {
          const row = await state(database, id);
          expect(row).toMatchObject({ status: "pending", attempts: 2 });
          expect(row?.wait_ms).toBeGreaterThan(1000 - 1000);
          expect(row?.wait_ms).toBeLessThanOrEqual(2000);
        }
        // Attempt 3 = maxAttempts: dead, with its last error, and not claimed any more.
        await database.rows(sql`update test_outbox set next_attempt_at = now()`);
        await outbox.drain();
        for (const id of ids) expect(await state(database, id)).toMatchObject({ status: "dead", attempts: 3 });
        await database.rows(sql`update test_outbox set next_attempt_at = now()`);
        expect(await outbox.claim()).toEqual([]);
        // Retry: only the rows asked for, with a fresh attempt count; then sent.
        failing = false;
        expect(await outbox.retryDead({ where: sql`id = ${ids[0]}` })).toBe(1);
        expect(await state(database, ids[0] ?? "")).toMatchObject({ status: "pending", attempts: 0 });
        expect(await outbox.drain()).toBe(1);
        expect(sent).toEqual([ids[0]]);
        expect(await state(database, ids[0] ?? "")).toMatchObject({ status: "sent", attempts: 1, last_error: null });
        expect(await outbox.retryDead()).toBe(3);
        expect(await outbox.drain()).toBe(3);
        expect(sent).toHaveLength(4);
      } finally {
        await database.close();
      }
    }, 60_000);

    it("wakes its loop at once when told (no wait for the next poll)", async () => {
      const database = await openWithTable(await target.create());
      const sent: string[] = [];
      const loop = createOutboxLoop({
        outboxes: [outboxOn(database, async (row) => void sent.push(row.id))],
        pollMs: 60_000,
        log: silent,
        name: "test",
      });
      try {
        loop.start();
        await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(0);
        const [id] = await insertRows(database, 1);
        loop.wake();
        await expect.poll(() => sent, { timeout: 10_000, interval: 50 }).toEqual([id]);
      } finally {
        await loop.stop();
        await database.close();
      }
    }, 60_000);
  });
}
