/** EU acts followed: read a newly followed act in the background; poll the followed ones and alert. */
import { eq } from "drizzle-orm";
import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { alertProfiles, laws } from "../../db/schema.ts";
import { recordPendingChange } from "../../law-texts/changes.ts";
import type { Logger } from "../../logger.ts";
import { createSourceHttp, productUserAgent, type SourceHttp } from "../http.ts";
import { instancePacer } from "../pacing.ts";
import type { LawAlerts } from "../plugin.ts";
import { type EuUrls, syncEuLaw } from "./sync.ts";

const running = new Set<string>();

export function startEuSync(config: Config, database: Database, log: Logger, actCelex: string): void {
  if (running.has(actCelex)) return;
  running.add(actCelex);
  const sources = config.sources as unknown as { cellarSparqlUrl: string; cellarUrl: string };
  const http = createSourceHttp({
    userAgent: productUserAgent(config.siteUrl),
    source: "cellar",
    // The instance's pacer, the one the jobs' Cellar lane uses (a pacer of its own would double the pace).
    pacer: instancePacer(database),
  });
  syncEuLaw(database, http, { cellarSparqlUrl: sources.cellarSparqlUrl, cellarUrl: sources.cellarUrl }, actCelex)
    .then((result) => log.info({ law: actCelex, versions: result.applied.length }, "eu consolidated versions read"))
    .catch((error: unknown) =>
      log.warn({ law: actCelex, err: (error as Error).message }, "eu consolidated versions failed"),
    )
    .finally(() => running.delete(actCelex));
}

/**
 * Polls every followed EU act and alerts the followers of each change, as pollAndAlert does for
 * BOE laws (../consolidated/alerting.ts): a new consolidated version's new wordings are one law change,
 * matched against the follows. An act's first read alerts nobody.
 */
export async function pollEuAndAlert(deps: {
  database: Database;
  http: SourceHttp;
  urls: EuUrls;
  lawAlerts: LawAlerts;
  log: Pick<Logger, "warn">;
}): Promise<Array<{ lawId: string; changeId: string | null; applied: string[] }>> {
  const followed = await deps.database.db
    .selectDistinct({ id: laws.id })
    .from(laws)
    .innerJoin(alertProfiles, eq(alertProfiles.lawId, laws.id))
    .where(eq(laws.source, "eu"));
  const out: Array<{ lawId: string; changeId: string | null; applied: string[] }> = [];
  await deps.lawAlerts.sweep();
  for (const { id } of followed) {
    try {
      const result = await syncEuLaw(deps.database, deps.http, deps.urls, id);
      let changeId: string | null = null;
      // Recorded from the versions the sync marked: those a killed run left too (decision 0162).
      if (!result.first) {
        changeId = await recordPendingChange(deps.database, id);
        if (changeId) await deps.lawAlerts.changed(changeId);
      }
      out.push({ lawId: id, changeId, applied: result.applied });
    } catch (error) {
      deps.log.warn({ law: id, err: (error as Error).message }, "eu consolidated poll failed");
    }
  }
  return out;
}
