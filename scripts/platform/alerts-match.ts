/**
 * npm run platform -- alerts:match <documentId> [--json]
 * Matches one stored document against every alert profile and webhook now (what the server's
 * `alerts-match` job does after ingestion) and stores the deliveries in the outbox. On PostgreSQL
 * it runs beside the servers: their delivery workers are woken by NOTIFY and send at once.
 * Exit code 0 when the document exists, 1 when it does not, 2 on bad options.
 */
import path from "node:path";
import { databaseDirectory, databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { ConfigError, loadConfig } from "../../app/.server/config.ts";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";

export const summary = "match a stored document against the alert profiles now: alerts:match <documentId> [--json]";

export async function run(argv: string[]): Promise<number> {
  const json = argv.includes("--json");
  const [documentId] = argv.filter((arg) => arg !== "--json");
  if (!documentId || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(documentId)) {
    process.stderr.write(`a document id (uuid) is required\n${summary}\n`);
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
  try {
    await migrate(database, defaultMigrationsDir);
    const loadDocument = databaseDocuments(database);
    if (!(await loadDocument(documentId))) {
      process.stderr.write(`no document ${documentId}\n`);
      return 1;
    }
    const result = await matchDocument(database, documentId, { loadDocument, directory: databaseDirectory(database) });
    process.stdout.write(
      json
        ? `${JSON.stringify(result)}\n`
        : `document ${documentId}: ${result.candidates} candidate profiles, ${result.matched} matched (${result.newMatches} new), ${result.deliveries} deliveries queued\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}
