/**
 * Classification as the running server holds it: reclassification of stale documents and the
 * organisations' topics, as jobs on the kernel or, where jobs are off (tests, in-memory runs), inline.
 * A document whose labels changed is told to `onLabelsChanged` (the pipeline's labels-changed event).
 */
import type { Database } from "../db/client.ts";
import type { Kernel } from "../kernel/kernel.ts";
import type { Logger } from "../logger.ts";
import { registerClassifyJobs } from "./jobs.ts";
import { type ReclassifyResult, reclassifyStale } from "./reclassify.ts";
import { matchDocumentTopics, rematchOrganisation } from "./topics.ts";

export interface ClassifyService {
  /** After a document is stored: its topics for every organisation. */
  documentStored(documentId: string): Promise<void>;
  /** After an admin changed the organisation's topics. */
  topicsChanged(organizationId: string): Promise<void>;
  /** Reclassify every stale document now (operators, tests). */
  reclassifyNow(): Promise<ReclassifyResult>;
}

export function createClassifyService(deps: {
  database: Database;
  log: Logger;
  kernel: Kernel;
  onLabelsChanged(documentId: string): Promise<unknown>;
}): ClassifyService {
  const { database, log } = deps;
  const reclassifyNow = () => reclassifyStale(database, { onChanged: deps.onLabelsChanged });
  const jobs = registerClassifyJobs(deps.kernel, log, {
    reclassify: reclassifyNow,
    rematch: (organizationId) => rematchOrganisation(database, organizationId),
  });
  return {
    async documentStored(documentId) {
      await matchDocumentTopics(database, documentId);
    },
    async topicsChanged(organizationId) {
      await jobs.queueTopics(organizationId);
    },
    reclassifyNow,
  };
}
