/**
 * Followed laws' alerts: a recorded change matched against the follows (lawAlertsFor, which the law
 * sources call through their job context: sources/consolidated, sources/eu-consolidated), the
 * sweep of half-written alerts, and the early warning when a daily act is stored (the document
 * pipeline's step, services.ts).
 */
import type { AlertDirectory } from "../alerts/matching.ts";
import type { Database } from "../db/client.ts";
import { announceFromDocument } from "../law-texts/changes.ts";
import type { LawAlerts } from "../sources/plugin.ts";
import { fanOutLawMatches, type LawMatchResult, matchLawChange } from "./matching.ts";

export interface LawAlertSettings {
  siteUrl: string;
  mailFrom: string;
}

let settings: LawAlertSettings = { siteUrl: "http://localhost:3000", mailFrom: "alertas@localhost" };

/** The site's URL and sender for law alert mails (services.ts at start). */
export function configureLawAlerts(next: LawAlertSettings): void {
  settings = next;
}
export const lawAlertSettings = (): LawAlertSettings => settings;

/**
 * Deliveries of law matches a stopped process left without them (matched, not yet fanned out):
 * every law poll starts with it. Returns how many deliveries were stored.
 */
export function finishLawFanOut(database: Database, directory: AlertDirectory): Promise<number> {
  return fanOutLawMatches(database, { directory, ...settings });
}

/** Early warning for a stored document: its relations to followed laws alert their followers now. */
export async function lawDocumentStored(
  database: Database,
  documentId: string,
  directory: AlertDirectory,
): Promise<Array<{ lawId: string; changeId: string; match: LawMatchResult }>> {
  const out: Array<{ lawId: string; changeId: string; match: LawMatchResult }> = [];
  for (const announcement of await announceFromDocument(database, documentId)) {
    const match = await matchLawChange(database, announcement.changeId, { directory, ...settings });
    out.push({ lawId: announcement.lawId, changeId: announcement.changeId, match });
  }
  return out;
}

/** Followed laws' alerts as the law sources call them (given to the jobs by services.ts). */
export function lawAlertsFor(database: Database, directory: AlertDirectory): LawAlerts {
  return {
    changed: (changeId) => matchLawChange(database, changeId, { directory, ...settings }),
    sweep: () => finishLawFanOut(database, directory),
  };
}
