/**
 * Followed laws' alerts: a recorded change matched against the follows (lawAlertsFor, which the law
 * sources call through their job context: sources/consolidated, sources/eu-consolidated), the
 * sweep of half-written alerts, and the early warning when a daily act is stored (the document
 * pipeline's step, services.ts).
 */
import { sql } from "drizzle-orm";
import type { AlertDirectory } from "../alerts/matching.ts";
import type { Database } from "../db/client.ts";
import { faultPoint } from "../kernel/fault.ts";
import { announceFromDocument, lawsWithPendingChanges, recordPendingChange } from "../law-texts/changes.ts";
import type { LawAlerts } from "../sources/plugin.ts";
import { fanOutLawMatches, type LawMatchResult, matchLawChange, storeLawMatches } from "./matching.ts";

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
 * every law poll and every start (services.ts) begins with it. Returns how many deliveries were stored.
 */
export function finishLawFanOut(database: Database, directory: AlertDirectory): Promise<number> {
  return fanOutLawMatches(database, { directory, ...settings });
}

/**
 * Everything a stopped process left of followed laws' alerts, in order: versions a law poll wrote
 * and did not record as a change (recorded now from the marks, decision 0162), changes recorded
 * and not matched (matched now), matches not fanned out (finishLawFanOut). Every law poll and
 * every start (services.ts) begins with it; each step is idempotent (marks cleared in the
 * transaction that does the work, unique match and delivery keys), so two instances may run it.
 */
export async function finishLawAlerts(
  database: Database,
  directory: AlertDirectory,
): Promise<{ changes: number; matched: number; deliveries: number }> {
  let changes = 0;
  for (const lawId of await lawsWithPendingChanges(database)) {
    if (!(await recordPendingChange(database, lawId))) continue;
    changes++;
    // The change recorded (match_pending), its follows not yet matched.
    faultPoint("law.change-recorded");
  }
  const waiting = await database.rows<{ id: string }>(
    sql`select id from law_changes where match_pending order by created_at, id`,
  );
  for (const { id } of waiting) await storeLawMatches(database, id, settings);
  const deliveries = await finishLawFanOut(database, directory);
  return { changes, matched: waiting.length, deliveries };
}

/** Early warning for a stored document: its relations to followed laws alert their followers now. */
export async function lawDocumentStored(
  database: Database,
  documentId: string,
  directory: AlertDirectory,
): Promise<Array<{ lawId: string; changeId: string; match: LawMatchResult }>> {
  const out: Array<{ lawId: string; changeId: string; match: LawMatchResult }> = [];
  await announceFromDocument(database, documentId);
  // Every announced change of the document, not only those recorded now: a process killed after
  // recording one and before matching it leaves it to the event's retry (matching is idempotent).
  const announced = await database.rows<{ law_id: string; change_id: string }>(sql`
    select c.law_id, c.id as change_id from law_changes c
    join law_announcements a on a.id = c.announcement_id
    where a.document_id = ${documentId}::uuid and c.kind = 'announced'
    order by c.created_at, c.id`);
  for (const { law_id: lawId, change_id: changeId } of announced) {
    faultPoint("law.announced");
    const match = await matchLawChange(database, changeId, { directory, ...settings });
    out.push({ lawId, changeId, match });
  }
  return out;
}

/** Followed laws' alerts as the law sources call them (given to the jobs by services.ts). */
export function lawAlertsFor(database: Database, directory: AlertDirectory): LawAlerts {
  return {
    changed: (changeId) => matchLawChange(database, changeId, { directory, ...settings }),
    sweep: () => finishLawAlerts(database, directory),
  };
}
