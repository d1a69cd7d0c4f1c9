/**
 * The one outbox: rows of a table that must be sent once (a mail, an alert delivery), written in
 * the same transaction as the change that causes them, sent by a worker loop on every instance.
 * A table qualifies by its columns: id, status (pending → sending → sent, or dead), attempts,
 * next_attempt_at, lease_until, last_error, sent_at.
 * - claim: up to `batchSize` due rows (pending and due, or sending with an expired lease: a crashed
 *   instance's), FOR UPDATE SKIP LOCKED so that concurrent claimers never take the same row, each
 *   marked sending with a lease and one more attempt;
 * - send(row): the table's own work; it resolves (the row is marked sent), resolves "handled"
 *   (send already set the row's state, e.g. in its own transaction, or deleted it) or throws;
 * - a failure: retried after an exponential back-off with jitter, or dead (after maxAttempts, or
 *   when `isDead` says so); `retryDead` puts dead rows back with a fresh attempt count.
 * createOutboxLoop runs several outboxes' drains in one poll loop, woken at once by `wake()`.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Database, Db } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import { faultPoint } from "./fault.ts";
import { createPollLoop } from "./poll-loop.ts";

export interface OutboxRetrySettings {
  /** First retry delay; doubles each attempt. */
  retryBaseMs: number;
  /** Upper bound of one retry delay. */
  retryMaxMs: number;
  /** After this many failed attempts a row is dead. */
  maxAttempts: number;
  /** A row in "sending" longer than this belongs to a crashed instance and is taken again. */
  leaseMs: number;
}

/** Exponential back-off with "equal jitter": half the delay fixed, half random; never above the cap. */
export function retryDelayMs(
  attempt: number,
  settings: Pick<OutboxRetrySettings, "retryBaseMs" | "retryMaxMs">,
  random: () => number = Math.random,
): number {
  const exp = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** What a claimed row carries at least. */
export interface OutboxRow {
  id: string;
  attempts: number;
}

export interface OutboxLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OutboxOptions<Row extends OutboxRow> {
  database: Database;
  /** The table (a trusted constant, never input). */
  table: string;
  /** Columns returned with id and attempts (trusted constants). */
  columns: readonly (keyof Row & string)[];
  settings: OutboxRetrySettings & { batchSize: number };
  /** Sends the row; resolving with "handled" means send already set the row's state (or deleted it). */
  send(row: Row): Promise<unknown>;
  /** Dead now rather than retried in `delayMs` (default: attempts reached maxAttempts). */
  isDead?(row: Row, error: unknown, delayMs: number): boolean;
  /**
   * In the transaction that marks a row dead: what else follows from it (the webhook deliveries:
   * their webhook is marked failing). A crash cannot leave one without the other.
   */
  onDead?(tx: Db, row: Row, error: unknown): Promise<void>;
  /**
   * How a claimed batch is sent (default: every row through `send` at once). `one` is the default
   * path for a row (send, then sent, retried or dead).
   */
  sendBatch?(rows: Row[], one: (row: Row) => Promise<void>): Promise<unknown>[];
  log: OutboxLog;
  /** Log lines: what a row is ("contact mail") and its identifying fields (never a secret or an address). */
  what: string;
  describe?(row: Row): Record<string, unknown>;
  /** Said in the dead row's log line (how an operator retries). */
  deadHint?: string;
  /** Log each sent row (default true; off for high-volume tables). */
  logSent?: boolean;
}

export interface Outbox<Row extends OutboxRow = OutboxRow> {
  readonly table: string;
  /** Up to batchSize due rows, now leased to this caller. */
  claim(): Promise<Row[]>;
  /** Sends claimed rows; rejects when the state of a row could not be written (database down). */
  process(rows: Row[]): Promise<void>;
  /** Claims and sends until nothing is due (or `stopping()` says so); the number of rows handled. */
  drain(stopping?: () => boolean): Promise<number>;
  /** Puts dead rows (all, or those `where` selects) back in the queue with a fresh attempt count. */
  retryDead(options?: { where?: SQL; set?: SQL }): Promise<number>;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

export function createOutbox<Row extends OutboxRow>(options: OutboxOptions<Row>): Outbox<Row> {
  const { database, settings, log, what } = options;
  const table = sql.identifier(options.table);
  const returning = sql.join(
    ["id", "attempts", ...options.columns].map((column) => sql.identifier(column)),
    sql`, `,
  );
  const describe = (row: Row) => ({
    table: options.table,
    id: row.id,
    attempts: row.attempts,
    ...options.describe?.(row),
  });

  async function claim(): Promise<Row[]> {
    return database.rows<Row>(sql`
      update ${table} set status = 'sending', attempts = attempts + 1,
        lease_until = now() + (${settings.leaseMs}::int * interval '1 millisecond')
      where id in (
        select id from ${table}
        where (status = 'pending' and next_attempt_at <= now())
           or (status = 'sending' and lease_until < now())
        order by next_attempt_at
        limit ${settings.batchSize}
        for update skip locked)
      returning ${returning}`);
  }

  async function failed(row: Row, error: unknown): Promise<void> {
    const reason = errorText(error);
    const delay = retryDelayMs(row.attempts, settings);
    const dead = options.isDead ? options.isDead(row, error, delay) : row.attempts >= settings.maxAttempts;
    if (dead) {
      const markDead = sql`
        update ${table} set status = 'dead', lease_until = null, last_error = ${reason} where id = ${row.id}`;
      const onDead = options.onDead;
      if (onDead)
        await database.db.transaction(async (tx) => {
          await rowsOf(tx, markDead);
          await onDead(tx, row, error);
        });
      else await database.rows(markDead);
      log.error({ ...describe(row), err: reason }, `${what} dead${options.deadHint ? ` (${options.deadHint})` : ""}`);
      return;
    }
    await database.rows(sql`
      update ${table} set status = 'pending', lease_until = null, last_error = ${reason},
        next_attempt_at = now() + (${delay}::int * interval '1 millisecond')
      where id = ${row.id}`);
    log.warn({ ...describe(row), retryInMs: delay, err: reason }, `${what} failed, will retry`);
  }

  async function one(row: Row): Promise<void> {
    let outcome: unknown;
    try {
      outcome = await options.send(row);
    } catch (error) {
      await failed(row, error);
      return;
    }
    if (outcome === "handled") return;
    // Sent, not yet marked: a process killed here sends the row again after its lease (same row id).
    faultPoint(`${options.table}.sent`);
    await database.rows(sql`
      update ${table} set status = 'sent', sent_at = now(), lease_until = null, last_error = null
      where id = ${row.id}`);
    if (options.logSent !== false) log.info(describe(row), `${what} sent`);
  }

  async function process(rows: Row[]): Promise<void> {
    // allSettled: one failure must not leave the others' sends running unawaited
    // (their rows would not be marked sent, and would be sent again after the lease).
    const results = await Promise.allSettled(options.sendBatch ? options.sendBatch(rows, one) : rows.map(one));
    const rejected = results.find((result) => result.status === "rejected");
    if (rejected) throw rejected.reason;
  }

  return {
    table: options.table,
    claim,
    process,
    async drain(stopping = () => false) {
      let handled = 0;
      while (!stopping()) {
        const rows = await claim();
        if (rows.length === 0) break;
        await process(rows);
        handled += rows.length;
      }
      return handled;
    },
    retryDead: (retry) => retryDeadRows(database, options.table, retry),
  };
}

/** Puts a table's dead rows (all, or those `where` selects) back in the queue with a fresh attempt count. */
export async function retryDeadRows(
  database: Database,
  table: string,
  retry: { where?: SQL; set?: SQL } = {},
): Promise<number> {
  const rows = await database.rows(sql`
    update ${sql.identifier(table)} set status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = null
      ${retry.set ? sql`, ${retry.set}` : sql``}
    where status = 'dead' ${retry.where ? sql`and (${retry.where})` : sql``}
    returning id`);
  return rows.length;
}

export interface OutboxLoop {
  start(): void;
  /** Drains every outbox once, in order, until nothing is due (tests and the CLI). */
  drain(): Promise<number>;
  /** Drain now instead of at the end of the wait (a row was just queued). */
  wake(): void;
  /** After the current send. */
  stop(): Promise<void>;
}

/** One poll loop over outboxes, drained in the order given; `beforeDrain` runs first in each tick (housekeeping). */
export function createOutboxLoop(options: {
  outboxes: readonly Outbox<never>[] | readonly Outbox[];
  pollMs: number;
  log: OutboxLog;
  /** Names the loop in its log lines ("outbox", "delivery"). */
  name: string;
  beforeDrain?(): Promise<void>;
}): OutboxLoop {
  const outboxes = options.outboxes as readonly Outbox[];
  async function drain(): Promise<number> {
    let handled = 0;
    for (const outbox of outboxes) handled += await outbox.drain(() => loop.stopping);
    return handled;
  }
  const loop = createPollLoop({
    pollMs: options.pollMs,
    log: options.log,
    name: options.name,
    async tick() {
      await options.beforeDrain?.();
      await drain();
    },
  });
  return { start: () => loop.start(), drain, wake: () => loop.wake(), stop: () => loop.stop() };
}
