/**
 * One poll of the followed BOE laws: half-written alerts finished first (what a killed poll left
 * included), then every changed law recorded as one law change from the versions the poll marked
 * (recordPendingChange) and handed to the laws' alerts (context.lawAlerts). A law's first fetch
 * alerts nobody.
 */
import { faultPoint } from "../../kernel/fault.ts";
import { recordPendingChange } from "../../law-texts/changes.ts";
import type { LawAlerts } from "../plugin.ts";
import { type ConsolidatedDeps, type PollResult, pollConsolidated } from "./poll.ts";

export interface LawPollOutcome extends PollResult {
  changes: Array<{ lawId: string; changeId: string; match: unknown }>;
}

export async function pollAndAlert(
  deps: ConsolidatedDeps & { lawAlerts: LawAlerts },
  options: { only?: string[] } = {},
): Promise<LawPollOutcome> {
  await deps.lawAlerts.sweep();
  const result = await pollConsolidated(deps, options);
  const changes: LawPollOutcome["changes"] = [];
  for (const law of result.laws) {
    // A law whose poll failed half-way has its written versions reported too (they are marked).
    if (law.status === "first" || law.status === "unchanged") continue;
    // Between the phases: versions stored (marked unreported), the change not recorded.
    faultPoint("law.versions-stored");
    const changeId = await recordPendingChange(deps.database, law.lawId);
    if (!changeId) continue;
    // The change recorded (match_pending), its follows not yet matched.
    faultPoint("law.change-recorded");
    changes.push({ lawId: law.lawId, changeId, match: await deps.lawAlerts.changed(changeId) });
  }
  return { ...result, changes };
}
