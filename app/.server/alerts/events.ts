/**
 * The real-time hub behind GET /app/events. A new alert's id is NOTIFYed on one channel in the
 * transaction that inserts it (worker.ts); every instance LISTENs on a dedicated connection, reads
 * the alerts back by id, and hands them to that user's open pages. On PGlite the same LISTEN/NOTIFY
 * runs in process. subscribe() first replays the alerts after Last-Event-ID from the table.
 */
import { eq, inArray } from "drizzle-orm";
import pg from "pg";
import type { Database } from "../db/client.ts";
import { alertProfiles, alerts } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import {
  type AlertEvent,
  alertEventColumns,
  alertsAfter,
  alertsChannel,
  alertWhyText,
  deliveriesChannel,
} from "./inbox.ts";
import type { Lang } from "./profiles.ts";

export interface AlertHub {
  /** Replays alerts after lastEventId (if given), then live ones; returns the unsubscribe function. */
  subscribe(userId: string, lastEventId: number | undefined, onEvent: (event: AlertEvent) => void): Promise<() => void>;
  /** Called when any instance stored new deliveries (wire it to the delivery worker's wake()). */
  onDeliveriesQueued(listener: () => void): void;
  close(): Promise<void>;
}

interface Subscriber {
  userId: string;
  /** The highest id handed over (catch-up after a lost connection starts there). */
  lastId: number;
  /** Ids already handed over: ids commit out of order, so live events are deduplicated, not cut at lastId. */
  seen: Set<number>;
  /** Alerts at or below this id were the page's before it subscribed (Last-Event-ID, or the newest at subscribe). */
  floor: number;
  ready: boolean;
  buffer: AlertEvent[];
  onEvent: (event: AlertEvent) => void;
}

export async function createAlertHub(
  database: Database,
  options: { databaseUrl?: string | undefined; log: Logger },
): Promise<AlertHub> {
  const log = options.log.child({ component: "alert-hub" });
  const subscribers = new Set<Subscriber>();
  const pending = new Set<number>();
  let flushing: Promise<void> | undefined;
  let closed = false;
  const queuedListeners: (() => void)[] = [];
  const deliveriesQueued = () => {
    for (const listener of queuedListeners) listener();
  };

  function deliver(sub: Subscriber, event: AlertEvent) {
    if (event.alertId <= sub.floor || sub.seen.has(event.alertId)) return;
    sub.seen.add(event.alertId);
    if (sub.seen.size > 2000) sub.seen.delete(sub.seen.values().next().value as number);
    sub.lastId = Math.max(sub.lastId, event.alertId);
    try {
      sub.onEvent(event);
    } catch (error) {
      log.warn({ err: error }, "alert subscriber failed");
    }
  }

  /** Reads the notified alerts back in one query and fans them out. */
  async function flush(): Promise<void> {
    while (pending.size) {
      const ids = [...pending];
      pending.clear();
      if (!subscribers.size) continue;
      const rows = await database.db
        .select({ userId: alerts.userId, ...alertEventColumns })
        .from(alerts)
        .leftJoin(alertProfiles, eq(alertProfiles.id, alerts.profileId))
        .where(inArray(alerts.id, ids))
        .orderBy(alerts.id);
      for (const { userId, ...event } of rows) {
        for (const sub of subscribers) {
          if (sub.userId !== userId) continue;
          if (sub.ready) deliver(sub, event);
          else sub.buffer.push(event);
        }
      }
    }
  }

  function onNotify(payload: string | undefined) {
    const id = Number(payload);
    if (!Number.isSafeInteger(id)) return;
    pending.add(id);
    flushing ??= flush()
      .catch((error) => log.warn({ err: error }, "reading notified alerts failed"))
      .finally(() => {
        flushing = undefined;
        if (pending.size) onNotify(String([...pending][0]));
      });
  }

  /** After a lost connection: every open page gets what it missed from the table. */
  async function catchUp() {
    for (const sub of subscribers) {
      if (!sub.ready) continue;
      for (const event of await alertsAfter(database.db, sub.userId, sub.lastId)) deliver(sub, event);
    }
  }

  let stopListening: () => Promise<void>;
  if (database.kind === "postgres") {
    if (!options.databaseUrl) throw new Error("createAlertHub: databaseUrl is required on PostgreSQL");
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (attempt: number): Promise<void> => {
      if (closed) return;
      const next = new pg.Client({ connectionString: options.databaseUrl, keepAlive: true });
      next.on("notification", (message) => {
        if (message.channel === alertsChannel) onNotify(message.payload);
        else if (message.channel === deliveriesChannel) deliveriesQueued();
      });
      next.on("error", (error) => {
        log.warn({ err: error }, "alert listener connection lost; reconnecting");
        client = undefined;
        next.end().catch(() => {});
        retry = setTimeout(() => void connect(1), 1000);
      });
      try {
        await next.connect();
        await next.query(`listen ${alertsChannel}; listen ${deliveriesChannel}`);
        client = next;
        if (attempt > 0) await catchUp();
      } catch (error) {
        next.end().catch(() => {});
        if (attempt === 0) throw error;
        retry = setTimeout(() => void connect(attempt + 1), Math.min(30_000, 1000 * 2 ** attempt));
      }
    };
    await connect(0);
    stopListening = async () => {
      clearTimeout(retry);
      await client?.end().catch(() => {});
    };
  } else {
    const pglite = (
      database.db as unknown as {
        $client: { listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>> };
      }
    ).$client;
    const unlisten = await pglite.listen(alertsChannel, (payload) => onNotify(payload));
    const unlistenQueued = await pglite.listen(deliveriesChannel, () => deliveriesQueued());
    stopListening = async () => {
      await unlisten();
      await unlistenQueued();
    };
  }

  return {
    async subscribe(userId, lastEventId, onEvent) {
      const sub: Subscriber = {
        userId,
        lastId: 0,
        seen: new Set(),
        floor: Number.MAX_SAFE_INTEGER,
        ready: false,
        buffer: [],
        onEvent,
      };
      subscribers.add(sub);
      try {
        if (lastEventId !== undefined && Number.isSafeInteger(lastEventId) && lastEventId >= 0) {
          sub.lastId = lastEventId;
          sub.floor = lastEventId;
          for (const event of await alertsAfter(database.db, userId, lastEventId)) deliver(sub, event);
        } else {
          // A fresh page starts from now: the newest alert id is the floor.
          const [latest] = await alertsAfter(database.db, userId, 0, 1, true);
          sub.lastId = latest?.alertId ?? 0;
          sub.floor = sub.lastId;
        }
      } catch (error) {
        subscribers.delete(sub);
        throw error;
      }
      sub.ready = true;
      // Events that arrived during the replay (deliver() drops those at or below the floor).
      for (const event of sub.buffer.splice(0)) deliver(sub, event);
      return () => {
        subscribers.delete(sub);
      };
    },
    onDeliveriesQueued(listener) {
      queuedListeners.push(listener);
    },
    async close() {
      closed = true;
      subscribers.clear();
      await stopListening();
      await flushing;
    },
  };
}

const encoder = new TextEncoder();

/**
 * The SSE Response for GET /app/events: `event: alert`, `id:`, `data:` JSON {alertId, documentId,
 * title, profileId, profileName, why} (why: the Alerts page's sentence in the page's language, null
 * for alerts stored before there was one); a heartbeat comment every 15 s; ends on abort.
 */
export async function alertEventsResponse(
  hub: AlertHub,
  userId: string,
  request: Request,
  options: { heartbeatMs?: number; locale?: Lang } = {},
): Promise<Response> {
  const locale = options.locale ?? "es";
  const header = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId");
  const lastEventId = header && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : undefined;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  const finish = () => {
    clearInterval(heartbeat);
    unsubscribe?.();
    unsubscribe = undefined;
    try {
      controllerRef?.close();
    } catch {}
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controllerRef = controller;
      controller.enqueue(encoder.encode("retry: 3000\n\n"));
      const send = (event: AlertEvent) => {
        const data = {
          alertId: event.alertId,
          documentId: event.documentId,
          title: event.title,
          profileId: event.profileId,
          profileName: event.profileName,
          why: alertWhyText(event, locale),
        };
        try {
          controller.enqueue(encoder.encode(`event: alert\nid: ${event.alertId}\ndata: ${JSON.stringify(data)}\n\n`));
        } catch {
          finish();
        }
      };
      unsubscribe = await hub.subscribe(userId, lastEventId, send);
      heartbeat = setInterval(() => {
        try {
          controller.enqueue(encoder.encode(": heartbeat\n\n"));
        } catch {
          finish();
        }
      }, options.heartbeatMs ?? 15_000);
      if (request.signal.aborted) finish();
      request.signal.addEventListener("abort", finish, { once: true });
    },
    cancel() {
      finish();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}
