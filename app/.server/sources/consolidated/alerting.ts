/**
 * One poll of the followed BOE laws: half-written alerts finished first, then every changed law
 * recorded as one law change and handed to the laws' alerts (context.lawAlerts). A law's first
 * fetch alerts nobody.
 */
import { recordConsolidatedChange } from "../../law-texts/changes.ts";
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
    if (law.status !== "changed") continue;
    const changeId = await recordConsolidatedChange(deps.database, law.lawId, law.writes);
    if (!changeId) continue;
    changes.push({ lawId: law.lawId, changeId, match: await deps.lawAlerts.changed(changeId) });
  }
  return { ...result, changes };
}
