/**
 * Classification's background work on the kernel: `classify-reclassify` labels again every
 * document whose labels came from other tables, rules or model (queued at start and daily; one at
 * a time across instances, batches take their rows with SKIP LOCKED besides), and
 * `topics-rematch` runs an organisation's topics over the whole collection after an admin
 * changed them (one queued and one running per organisation). Jobs off: both run inline.
 */
import type { Kernel } from "../kernel/kernel.ts";
import type { Logger } from "../logger.ts";

export const CLASSIFY_QUEUES = { reclassify: "classify-reclassify", topics: "topics-rematch" } as const;

export function registerClassifyJobs(
  kernel: Kernel,
  log: Logger,
  handlers: { reclassify(): Promise<unknown>; rematch(organizationId: string): Promise<unknown> },
) {
  kernel.queue(CLASSIFY_QUEUES.reclassify, { policy: "singleton", retryLimit: 3, retryBackoff: true }, async () => {
    const result = await handlers.reclassify();
    log.info({ result }, "documents reclassified");
  });
  kernel.queue<{ organizationId: string }>(
    CLASSIFY_QUEUES.topics,
    { policy: "stately", retryLimit: 3, retryBackoff: true },
    async ({ organizationId }) => {
      const result = await handlers.rematch(organizationId);
      log.info({ organizationId, result }, "organisation topics matched");
    },
  );
  kernel.schedule(CLASSIFY_QUEUES.reclassify, "15 4 * * *", null, { key: "daily" });
  // Once at each start (jobs on): documents labelled by an older classifier.
  kernel.afterStart("classification jobs", () => kernel.send(CLASSIFY_QUEUES.reclassify, {}));
  return {
    queueReclassify: async () => {
      await kernel.send(CLASSIFY_QUEUES.reclassify, {});
    },
    queueTopics: async (organizationId: string) => {
      await kernel.send(CLASSIFY_QUEUES.topics, { organizationId }, { singletonKey: organizationId });
    },
  };
}
