/**
 * Events on the kernel: an event is a queue (`event-{name}`) whose job runs the event's
 * subscribers in the order they were listed; a subscriber is added to that list without editing
 * the others. Per subject (e.g. a document id) at most one event is queued and one running across
 * instances (policy `stately` with the subject as singleton key): a second publication while one
 * waits adds nothing, the waiting one sees the latest state. A failing subscriber fails the job,
 * which pg-boss retries from the first subscriber: subscribers must be idempotent.
 * Jobs off (tests, in-memory runs): publish runs the subscribers now, in this process.
 */
import type { Kernel, KernelLog } from "./kernel.ts";

export interface Subscriber<T> {
  /** Names it in logs ("alerts: matching"). */
  name: string;
  handle(event: T): Promise<unknown>;
}

export interface KernelEvent<T extends object> {
  readonly queue: string;
  /** Queues the event (jobs on) or runs its subscribers now (jobs off). */
  publish(event: T): Promise<void>;
  /** The subscribers, in order (set once, by the pipeline). */
  subscribe(subscribers: Subscriber<T>[]): void;
  readonly subscribers: readonly Subscriber<T>[];
}

export function defineEvent<T extends object>(
  kernel: Kernel,
  log: KernelLog,
  name: string,
  subject: (event: T) => string,
): KernelEvent<T> {
  const queue = `event-${name}`;
  let subscribers: Subscriber<T>[] = [];
  kernel.queue<T>(
    queue,
    { policy: "stately", notify: true, retryLimit: 5, retryDelay: 2, retryBackoff: true, batchSize: 4 },
    async (event) => {
      for (const subscriber of subscribers) {
        try {
          await subscriber.handle(event);
        } catch (error) {
          log.warn({ err: error, event: name, subscriber: subscriber.name }, "event subscriber failed");
          throw error;
        }
      }
    },
  );
  return {
    queue,
    async publish(event) {
      await kernel.send(queue, event, { singletonKey: subject(event) });
    },
    subscribe(list) {
      subscribers = [...list];
    },
    get subscribers() {
      return subscribers;
    },
  };
}
