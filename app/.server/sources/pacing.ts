/**
 * Politeness per source (spec: at most 2 requests per second per source), shared by every
 * client and job of an instance and, on PostgreSQL, by every instance (decisions 0073, 0120).
 *
 * - One lane per source key ("boe", "eurlex", "cellar", "feed:host"). A lane has at most one
 *   request out at a time, and the next one leaves `spacingMs` (1000 / perSecond) after the
 *   previous one was answered (its headers arrived) or failed. The source received a request
 *   before it answered it, so two requests reach it at least `spacingMs` apart, whatever
 *   happens between the pacer and the wire (a busy event loop, a connection being opened): no
 *   window of any length holds more than perSecond × its length + 1, and no second holds 3.
 * - The clock is read when a request leaves: a timer that fires late delays a request, never
 *   lets two go together (no catch-up).
 * - Urgent requests (today's issue) leave before the waiting ordinary ones (backfill).
 * - With a shared store (PostgreSQL), a turn also needs the store: the source's row in
 *   source_pacing is claimed with one conditional upsert (the database's clock) and holds a
 *   lease while the request is out; the answer sets it to the moment of the answer. Waiting,
 *   never failing: if the store fails, the lane's own spacing still holds.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";

/** The spec's limit: requests per second per source. The one place it is written. */
export const DEFAULT_PER_SECOND = 2;

/** Call when the request's answer arrived (or it failed): the next one may leave `spacingMs` later. */
export type PacerRelease = () => void;

export interface SourcePacer {
  /** Resolves when a request to `source` may leave now, with the release to call once it is answered. */
  acquire(source: string, options?: { urgent?: boolean }): Promise<PacerRelease>;
  /** The quiet time between an answer and the next request to one source, in ms. */
  readonly spacingMs: number;
}

export interface PacingStore {
  /** Claims the source's next turn: a token when claimed, else the ms to wait before asking again. */
  claim(source: string, spacingMs: number, leaseMs: number): Promise<{ token: string } | { waitMs: number }>;
  /** The request of that turn was answered (or failed) now. */
  release(source: string, token: string): Promise<void>;
}

/** Longest a request may hold its lane (requests time out before: 20 s by default). */
const LEASE_MS = 60_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Waiter {
  urgent: boolean;
  resolve: (release: PacerRelease) => void;
}

interface Lane {
  /** When the last request was answered or left (performance.now()). */
  lastAt: number;
  waiting: Waiter[];
  /** A request is out (acquired, not yet released). */
  out: boolean;
  /** Choosing the next request (sleeping out the spacing, asking the store). */
  choosing: boolean;
}

export function createSourcePacer(
  options: { perSecond?: number; store?: PacingStore; onStoreError?: (error: unknown) => void } = {},
): SourcePacer {
  const spacingMs = 1000 / (options.perSecond ?? DEFAULT_PER_SECOND);
  const lanes = new Map<string, Lane>();

  async function claimStore(source: string): Promise<string | undefined> {
    const store = options.store;
    if (!store) return undefined;
    try {
      for (;;) {
        const answer = await store.claim(source, spacingMs, LEASE_MS);
        if ("token" in answer) return answer.token;
        // Another instance's request is out or just answered: ask again soon (its answer frees the turn).
        await sleep(Math.min(answer.waitMs, spacingMs) + Math.random() * 20);
      }
    } catch (error) {
      options.onStoreError?.(error);
      return undefined;
    }
  }

  async function next(source: string, lane: Lane): Promise<void> {
    if (lane.out || lane.choosing || lane.waiting.length === 0) return;
    lane.choosing = true;
    try {
      // Local spacing, checked against the clock after every sleep (timers fire late, never early).
      for (let left = lane.lastAt + spacingMs - performance.now(); left > 0; ) {
        await sleep(left);
        left = lane.lastAt + spacingMs - performance.now();
      }
      const token = options.store ? await claimStore(source) : undefined;
      // Chosen now, not when it queued: an urgent request that arrived meanwhile goes first.
      const index = lane.waiting.findIndex((w) => w.urgent);
      const [waiter] = lane.waiting.splice(index >= 0 ? index : 0, 1);
      lane.out = true;
      lane.lastAt = performance.now();
      let released = false;
      const release: PacerRelease = () => {
        if (released) return;
        released = true;
        clearTimeout(lease);
        lane.lastAt = performance.now();
        const free = () => {
          lane.out = false;
          void next(source, lane);
        };
        // The store hears of the answer before this lane asks it for the next turn.
        if (token === undefined || !options.store) free();
        else
          options.store
            .release(source, token)
            .catch((error: unknown) => options.onStoreError?.(error))
            .finally(free);
      };
      // A caller that never releases (a bug) cannot hold the lane for ever.
      const lease = setTimeout(release, LEASE_MS);
      lease.unref?.();
      waiter?.resolve(release);
    } finally {
      lane.choosing = false;
    }
  }

  return {
    spacingMs,
    acquire(source, acquireOptions = {}) {
      let lane = lanes.get(source);
      if (!lane) {
        lane = { lastAt: Number.NEGATIVE_INFINITY, waiting: [], out: false, choosing: false };
        lanes.set(source, lane);
      }
      const entered = lane;
      return new Promise<PacerRelease>((resolve) => {
        entered.waiting.push({ urgent: acquireOptions.urgent === true, resolve });
        void next(source, entered);
      });
    },
  };
}

/**
 * The PostgreSQL store: one source_pacing row per source, the database's clock for every
 * instance. A claim sets last_at to the end of the lease (a moment in the future: the turn is
 * taken); the release sets it to the answer's moment. A turn can be claimed once last_at is
 * `spacing` in the past. The token is the claimed last_at, so a late release of an expired
 * lease does not touch a newer claim.
 */
export function postgresPacingStore(database: Database): PacingStore {
  return {
    async claim(source, spacingMs, leaseMs) {
      const claimed = await database.rows<{ token: string }>(sql`
        insert into source_pacing (source, last_at)
        values (${source}, clock_timestamp() + make_interval(secs => ${leaseMs / 1000}))
        on conflict (source) do update set last_at = excluded.last_at
        where source_pacing.last_at <= clock_timestamp() - make_interval(secs => ${spacingMs / 1000})
        returning last_at::text as token`);
      if (claimed[0]) return { token: claimed[0].token };
      const [row] = await database.rows<{ wait_ms: number | string }>(sql`
        select greatest(1, extract(epoch from (last_at + make_interval(secs => ${spacingMs / 1000}) - clock_timestamp())) * 1000)::float8 as wait_ms
        from source_pacing where source = ${source}`);
      return { waitMs: Math.max(1, Number(row?.wait_ms ?? 1)) };
    },
    async release(source, token) {
      await database.rows(sql`
        update source_pacing set last_at = clock_timestamp()
        where source = ${source} and last_at = ${token}::timestamptz`);
    },
  };
}

let defaultPacer: SourcePacer | undefined;
const pacers = new WeakMap<Database, SourcePacer>();

/**
 * The pacer of an instance: one per database handle (an instance has one), with the
 * PostgreSQL store when the database is PostgreSQL; without a database, one per process.
 */
export function instancePacer(database?: Database, onStoreError?: (error: unknown) => void): SourcePacer {
  if (!database) {
    defaultPacer ??= createSourcePacer();
    return defaultPacer;
  }
  let pacer = pacers.get(database);
  if (!pacer) {
    pacer =
      database.kind === "postgres"
        ? createSourcePacer({ store: postgresPacingStore(database), ...(onStoreError ? { onStoreError } : {}) })
        : createSourcePacer();
    pacers.set(database, pacer);
  }
  return pacer;
}
