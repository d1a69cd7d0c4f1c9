/**
 * Classification as the running server holds it: reclassification of stale documents and the
 * organisations' topics, as jobs (pg-boss) or, where jobs are off (tests, in-memory runs), inline.
 * A document whose labels changed goes to alert matching.
 */
import type { Database } from "../db/client.ts";
import { createClassifyJobs } from "../jobs/classify-jobs.ts";
import type { Logger } from "../logger.ts";
import { type ReclassifyResult, reclassifyStale } from "./reclassify.ts";
import { matchDocumentTopics, rematchOrganisation } from "./topics.ts";

export interface ClassifyService {
  /** After a document is stored: its topics for every organisation. */
  documentStored(documentId: string): Promise<void>;
  /** After an admin changed the organisation's topics. */
  topicsChanged(organizationId: string): Promise<void>;
  /** Reclassify every stale document now (operators, tests). */
  reclassifyNow(): Promise<ReclassifyResult>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createClassifyService(deps: {
  database: Database;
  log: Logger;
  jobs: boolean;
  onLabelsChanged(documentId: string): Promise<unknown>;
}): ClassifyService {
  const { database, log } = deps;
  const reclassifyNow = () => reclassifyStale(database, { onChanged: deps.onLabelsChanged });
  const jobs = deps.jobs
    ? createClassifyJobs({
        database,
        log,
        reclassify: reclassifyNow,
        rematch: (organizationId) => rematchOrganisation(database, organizationId),
      })
    : undefined;
  return {
    async documentStored(documentId) {
      await matchDocumentTopics(database, documentId);
    },
    async topicsChanged(organizationId) {
      if (jobs) await jobs.queueTopics(organizationId);
      else await rematchOrganisation(database, organizationId);
    },
    reclassifyNow,
    async start() {
      await jobs?.start();
    },
    async stop() {
      await jobs?.stop();
    },
  };
}
