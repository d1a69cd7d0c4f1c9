/**
 * Politeness per source (spec: at most 2 requests per second per source), shared by every
 * client and job of an instance and, on PostgreSQL, by every instance.
 *
 * - One lane per source key ("boe", "eurlex", "cellar", "feed:host"). A lane lets one request
 *   go at a time and only when the previous one left at least `spacingMs` ago, measured when
 *   the request actually leaves (a timer that fires late after a busy event loop cannot
 *   release a burst: the old gate handed out slots in advance and released them together).
 * - The spacing is 1000 / perSecond plus a 20 % margin, so network and scheduling jitter (up to 200 ms)
 *   between the gate and the wire cannot put a third request inside one second.
 * - Urgent requests (today's issue) leave before the waiting ordinary ones (backfill).
 * - With a shared store (PostgreSQL), a lane's turn also needs the store's consent: the
 *   source's row in source_pacing holds when any instance last sent to it (the database's
 *   clock), claimed with one conditional upsert; otherwise it waits the time left and asks
 *   again. Waiting, never failing. If the store fails, the lane's local spacing still holds.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";

export interface SourcePacer {
  /** Resolves when a request to `source` may leave now. */
  wait(source: string, options?: { urgent?: boolean }): Promise<void>;
  /** The spacing between two requests to one source, in ms. */
  readonly spacingMs: number;
}

export interface PacingStore {
  /** Claims the source's next turn: 0 when claimed, else the ms to wait before asking again. */
  claim(source: string, spacingMs: number): Promise<number>;
}

export const DEFAULT_PER_SECOND = 2;
const MARGIN = 1.2;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Waiter {
  urgent: boolean;
  resolve: () => void;
}

interface Lane {
  lastAt: number;
  waiting: Waiter[];
  running: boolean;
}

export function createSourcePacer(
  options: { perSecond?: number; store?: PacingStore; onStoreError?: (error: unknown) => void } = {},
): SourcePacer {
  const spacingMs = (1000 / (options.perSecond ?? DEFAULT_PER_SECOND)) * MARGIN;
  const lanes = new Map<string, Lane>();

  async function run(source: string, lane: Lane): Promise<void> {
    lane.running = true;
    try {
      while (lane.waiting.length > 0) {
        // Local spacing, checked against the clock after every sleep (timers fire late, never early).
        for (let left = lane.lastAt + spacingMs - performance.now(); left > 0; ) {
          await sleep(left);
          left = lane.lastAt + spacingMs - performance.now();
        }
        if (options.store) {
          try {
            for (let wait = await options.store.claim(source, spacingMs); wait > 0; ) {
              await sleep(wait + Math.random() * 20);
              wait = await options.store.claim(source, spacingMs);
            }
          } catch (error) {
            options.onStoreError?.(error);
          }
        }
        // Chosen now, not when it queued: an urgent request that arrived meanwhile goes first.
        const index = lane.waiting.findIndex((w) => w.urgent);
        const [next] = lane.waiting.splice(index >= 0 ? index : 0, 1);
        lane.lastAt = performance.now();
        next?.resolve();
      }
    } finally {
      lane.running = false;
    }
  }

  return {
    spacingMs,
    wait(source, waitOptions = {}) {
      let lane = lanes.get(source);
      if (!lane) {
        lane = { lastAt: Number.NEGATIVE_INFINITY, waiting: [], running: false };
        lanes.set(source, lane);
      }
      const entered = lane;
      return new Promise<void>((resolve) => {
        entered.waiting.push({ urgent: waitOptions.urgent === true, resolve });
        if (!entered.running) void run(source, entered);
      });
    },
  };
}

/** The PostgreSQL store: source_pacing rows, the database's clock for every instance. */
export function postgresPacingStore(database: Database): PacingStore {
  return {
    async claim(source, spacingMs) {
      const seconds = spacingMs / 1000;
      const claimed = await database.rows<{ source: string }>(sql`
        insert into source_pacing (source, last_at) values (${source}, clock_timestamp())
        on conflict (source) do update set last_at = clock_timestamp()
        where source_pacing.last_at <= clock_timestamp() - make_interval(secs => ${seconds})
        returning source`);
      if (claimed.length > 0) return 0;
      const [row] = await database.rows<{ wait_ms: number | string }>(sql`
        select greatest(1, extract(epoch from (last_at + make_interval(secs => ${seconds}) - clock_timestamp())) * 1000)::float8 as wait_ms
        from source_pacing where source = ${source}`);
      return Math.max(1, Number(row?.wait_ms ?? 1));
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
