/**
 * npm run platform -- ingest --source boe --date YYYY-MM-DD | --source eurlex | --sample
 * Fetches from the configured source URLs (BOE_API_URL, ...) into the configured database.
 * Exit code 0 when the run completed without failed documents, 1 otherwise, 2 on bad options.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { databaseDirectory, databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { classify } from "../../app/.server/classify/classify.ts";
import { ConfigError, loadConfig } from "../../app/.server/config.ts";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import type { SourceDocument } from "../../app/.server/documents/types.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { handOverPending, type IngestResult, ingestBoeDay, ingestEurlex } from "../../app/.server/sources/ingest.ts";
import { instancePacer } from "../../app/.server/sources/pacing.ts";
import { loadSampleData, sampleDays } from "../../app/.server/sources/sample.ts";
import { startTriage } from "../../app/.server/triage/store.ts";
import { isCalendarDate } from "../../app/lib/calendar-date.ts";
import { madridDate } from "../../app/lib/madrid-date.ts";
import { createIngestReporter } from "../ingest-progress.ts";

export const summary = "ingest a source now: --source boe --date YYYY-MM-DD, --source eurlex, or --sample";

export async function run(argv: string[]): Promise<number> {
  let values: { source?: string; date?: string; sample?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { source: { type: "string" }, date: { type: "string" }, sample: { type: "boolean" } },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${summary}\n`);
    return 2;
  }
  if (!values.sample && values.source !== "boe" && values.source !== "eurlex") {
    process.stderr.write(`--source must be boe or eurlex\n${summary}\n`);
    return 2;
  }
  const date = values.date ?? madridDate();
  if (values.source === "boe" && !isCalendarDate(date)) {
    process.stderr.write("--date must be a date YYYY-MM-DD that exists\n");
    return 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, "db") });
  // Progress on stderr: a bar on a terminal, plain lines otherwise (the results stay on stdout).
  const reporter = createIngestReporter({ units: values.sample ? sampleDays().length + 1 : 1 });
  const { log, onProgress } = reporter;
  try {
    await migrate(database, defaultMigrationsDir);
    let results: IngestResult[];
    let sampleNote = "";
    if (values.sample) {
      const loaded = await loadSampleData({ database, log, onProgress, classify: (doc) => classify(doc) });
      results = loaded.results;
      sampleNote = `sample: ${loaded.laws} consolidated laws held${
        loaded.replayed ? `; BOE ${loaded.replayed.from} published again as ${loaded.replayed.as}` : ""
      }\n`;
    } else {
      // Paced with the running instances on PostgreSQL (source_pacing), as one more instance.
      const clients = createSourceClients({
        urls: config.sources,
        siteUrl: config.siteUrl,
        pacer: instancePacer(database),
        feedPolicy: { allowPrivate: config.alerts.allowPrivateWebhookUrls },
      });
      // New and changed documents are matched against the alert profiles here (deliveries go through
      // the outbox; a running server's worker is woken by NOTIFY on PostgreSQL, or sends at its next start).
      const directory = databaseDirectory(database);
      const loadDocument = databaseDocuments(database);
      const deps = {
        database,
        clients,
        log,
        onProgress,
        classify: (doc: SourceDocument) => classify(doc),
        onDocument: async (documentId: string) => {
          await matchDocument(database, documentId, { loadDocument, directory, onMatched: startTriage });
        },
      };
      // Documents a killed run stored without matching them: matched first (decision 0145).
      await handOverPending(database, deps.onDocument, log);
      results = [values.source === "boe" ? await ingestBoeDay(deps, date) : await ingestEurlex(deps)];
    }
    reporter.stop();
    let failed = 0;
    for (const r of results) {
      failed += r.failed.length;
      const what = r.date ? `${r.source} ${r.date}` : r.source;
      process.stdout.write(
        r.noIssue
          ? `${what}: no issue that day\n`
          : `${what}: listed ${r.listed}, created ${r.created}, updated ${r.updated}, unchanged ${r.unchanged}, failed ${r.failed.length}\n`,
      );
      for (const f of r.failed) process.stdout.write(`  failed ${f.sourceId} ${f.url}: ${f.error}\n`);
    }
    process.stdout.write(sampleNote);
    return failed > 0 ? 1 : 0;
  } catch (error) {
    reporter.stop();
    process.stderr.write(`ingest failed: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await database.close();
  }
}
