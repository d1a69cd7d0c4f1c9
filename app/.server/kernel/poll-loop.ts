/**
 * The outbox workers' loop (kernel/outbox.ts: contact and platform mail, alert deliveries): run `tick` every `pollMs`, or
 * at once when woken; keep going while the database is down (logged once a minute at most);
 * stop after the current tick.
 */
import type { Logger } from "../logger.ts";

export interface PollLoop {
  start(): void;
  /** Tick now instead of at the end of the wait (a request was just queued). */
  wake(): void;
  /** After the current tick. */
  stop(): Promise<void>;
  /** True once stop() was called: long ticks check it between batches. */
  readonly stopping: boolean;
}

export function createPollLoop(options: {
  pollMs: number;
  tick(): Promise<unknown>;
  log: Pick<Logger, "warn" | "info">;
  /** Names the loop in its log lines ("outbox", "delivery"). */
  name: string;
}): PollLoop {
  const { log, name } = options;
  let stopping = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  function sleep(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function run(): Promise<void> {
    let failingSince = 0;
    while (!stopping) {
      try {
        await options.tick();
        if (failingSince) log.info(`${name} database reachable again`);
        failingSince = 0;
      } catch (error) {
        // The database may be down: keep polling, log once per minute at most.
        if (!failingSince || Date.now() - failingSince > 60_000) {
          log.warn({ err: error }, `${name} poll failed`);
          failingSince = Date.now();
        }
      }
      if (!stopping) await sleep(options.pollMs);
    }
  }

  return {
    start() {
      loop ??= run();
    },
    wake() {
      woken = true;
      wakeUp?.();
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await loop;
    },
    get stopping() {
      return stopping;
    },
  };
}
