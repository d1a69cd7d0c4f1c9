/**
 * What happens after a document is stored, in order, in one place. Sources publish
 * `document-stored` (ingestion jobs, the sample loader); reclassification publishes
 * `labels-changed`. Adding a step is one more line in a list below; no other capability changes.
 */
import type { AlertsService } from "../alerts/service.ts";
import type { ClassifyService } from "../classify/service.ts";

import { defineEvent, type KernelEvent } from "./events.ts";
import type { Kernel, KernelLog } from "./kernel.ts";

export interface DocumentStored {
  documentId: string;
  /** False when a known document changed (a new version). */
  isNew: boolean;
}

export interface LabelsChanged {
  documentId: string;
}

export interface DocumentEvents {
  documentStored: KernelEvent<DocumentStored>;
  labelsChanged: KernelEvent<LabelsChanged>;
}

/** The events' queues on the kernel (before the capabilities that publish them). */
export function defineDocumentEvents(kernel: Kernel, log: KernelLog): DocumentEvents {
  return {
    documentStored: defineEvent<DocumentStored>(kernel, log, "document-stored", (e) => e.documentId),
    labelsChanged: defineEvent<LabelsChanged>(kernel, log, "labels-changed", (e) => e.documentId),
  };
}

/** The subscribers, in the order they run. */
export function subscribeDocumentPipeline(
  events: DocumentEvents,
  capabilities: {
    classification: Pick<ClassifyService, "documentStored">;
    alerts: Pick<AlertsService, "queueMatch">;
    /** Followed laws: a gazette act that amends one warns its followers the same poll (issue 25). */
    laws?: { documentStored(documentId: string): Promise<unknown> };
  },
): void {
  const { classification, alerts, laws } = capabilities;
  events.documentStored.subscribe([
    // 1. Each organisation's own topics for the document.
    { name: "classification: topics", handle: (e) => classification.documentStored(e.documentId) },
    // 2. Alert matching against the profiles (its own job: one per document across instances).
    { name: "alerts: matching", handle: (e) => alerts.queueMatch(e.documentId) },
    // 3. Followed laws this act amends: "change published, consolidation pending" (laws/service.ts).
    ...(laws
      ? [{ name: "laws: early warning", handle: (e: DocumentStored) => laws.documentStored(e.documentId) }]
      : []),
  ]);
  events.labelsChanged.subscribe([
    // Reclassified labels: matching again.
    { name: "alerts: matching", handle: (e) => alerts.queueMatch(e.documentId) },
  ]);
}
