/** Reads a newly followed EU act from Cellar in the background (the follow form does not wait for it). */
import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import { createSourceHttp, productUserAgent } from "../http.ts";
import { instancePacer } from "../pacing.ts";
import { syncEuLaw } from "./sync.ts";

const running = new Set<string>();

export function startEuSync(config: Config, database: Database, log: Logger, actCelex: string): void {
  if (running.has(actCelex)) return;
  running.add(actCelex);
  const sources = config.sources as unknown as { cellarSparqlUrl: string; cellarUrl: string };
  const http = createSourceHttp({
    userAgent: productUserAgent(config.siteUrl),
    source: "cellar",
    pacer: instancePacer(),
  });
  syncEuLaw(database, http, { cellarSparqlUrl: sources.cellarSparqlUrl, cellarUrl: sources.cellarUrl }, actCelex)
    .then((result) => log.info({ law: actCelex, versions: result.applied.length }, "eu consolidated versions read"))
    .catch((error: unknown) =>
      log.warn({ law: actCelex, err: (error as Error).message }, "eu consolidated versions failed"),
    )
    .finally(() => running.delete(actCelex));
}
