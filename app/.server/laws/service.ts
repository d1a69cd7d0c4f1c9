/**
 * Followed laws end to end: a poll of the consolidated source turned into changes matched against
 * follows, and the early warning when a daily act is stored. Used by the source plug-in
 * (sources/consolidated/index.ts), the ingestion hook (services.ts onDocument) and tests.
 */
import type { AlertDirectory } from "../alerts/matching.ts";
import type { Database } from "../db/client.ts";
import { announceFromDocument, recordConsolidatedChange } from "../law-texts/changes.ts";
import { type ConsolidatedDeps, type PollResult, pollConsolidated } from "../sources/consolidated/poll.ts";
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

export interface LawPollOutcome extends PollResult {
  changes: Array<{ lawId: string; changeId: string; match: LawMatchResult }>;
}

/**
 * Deliveries of law matches a stopped process left without them (matched, not yet fanned out):
 * every law poll starts with it. Returns how many deliveries were stored.
 */
export function finishLawFanOut(database: Database, directory: AlertDirectory): Promise<number> {
  return fanOutLawMatches(database, { directory, ...settings });
}

/** Polls the followed laws and alerts their followers of every change (first fetches alert nobody). */
export async function pollAndAlert(
  deps: ConsolidatedDeps & { directory: AlertDirectory },
  options: { only?: string[] } = {},
): Promise<LawPollOutcome> {
  await finishLawFanOut(deps.database, deps.directory);
  const result = await pollConsolidated(deps, options);
  const changes: LawPollOutcome["changes"] = [];
  for (const law of result.laws) {
    if (law.status !== "changed") continue;
    const changeId = await recordConsolidatedChange(deps.database, law.lawId, law.writes);
    if (!changeId) continue;
    const match = await matchLawChange(deps.database, changeId, { directory: deps.directory, ...settings });
    changes.push({ lawId: law.lawId, changeId, match });
  }
  return { ...result, changes };
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
