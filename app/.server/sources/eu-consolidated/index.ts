/**
 * Consolidated versions of EU acts (Cellar) as a source plug-in: the acts members follow, polled
 * twice a day (run.ts pollEuAndAlert: the SPARQL list of versions, only new versions' texts),
 * every new version matched against the follows. It stores no documents: its rows (followed
 * acts) say what to fetch, so it runs whenever ingestion is on. Same pacing lane as Cellar.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { alertProfiles, laws } from "../../db/schema.ts";
import { recordStatus } from "../ingest.ts";
import { dailyCron, euLawPollTimes } from "../law-poll-times.ts";
import { defineSource } from "../plugin.ts";
import { EU_CONSOLIDATED_PARSER } from "./parse.ts";
import { pollEuAndAlert } from "./run.ts";
import { EU_VERSIONS_PARSER } from "./sync.ts";

const QUEUE = "ingest-eu-laws";

export const euLawsSource = defineSource({
  id: "eu-laws",
  labels: { es: "Versiones consolidadas (UE)", en: "Consolidated versions (EU)" },
  descriptions: {
    es: "Las versiones consolidadas de los actos de la UE que sigue tu organización, artículo por artículo.",
    en: "The consolidated versions of the EU acts your organisation follows, article by article.",
  },
  selectable: false,
  storesDocuments: false,
  parsers: [EU_CONSOLIDATED_PARSER, EU_VERSIONS_PARSER],
  // On an organisation's Sources page only once it follows an EU act.
  async entries(db, organizationId) {
    const [follow] = await db
      .select({ id: alertProfiles.id })
      .from(alertProfiles)
      .innerJoin(laws, eq(laws.id, alertProfiles.lawId))
      .where(
        and(eq(alertProfiles.organizationId, organizationId), isNotNull(alertProfiles.lawId), eq(laws.source, "eu")),
      )
      .limit(1);
    return follow ? [{ id: "eu-laws", statusKey: "eu-laws", name: null, url: null }] : [];
  },
  plan(context) {
    const settings = context.settings as { cellarSparqlUrl?: string; cellarUrl?: string };
    const urls = {
      cellarSparqlUrl: settings.cellarSparqlUrl ?? "https://publications.europa.eu/webapi/rdf/sparql",
      cellarUrl: settings.cellarUrl ?? "https://publications.europa.eu",
    };
    return {
      queues: [
        {
          name: QUEUE,
          async work() {
            const runStartedAt = new Date();
            try {
              const result = await pollEuAndAlert({
                database: context.database,
                http: context.http("cellar"),
                urls,
                lawAlerts: context.lawAlerts,
                log: context.log,
              });
              await recordStatus(context.database, "eu-laws", {
                ok: true,
                added: result.filter((law) => law.changeId !== null).length,
                runStartedAt,
              });
            } catch (error) {
              await recordStatus(context.database, "eu-laws", {
                ok: false,
                error: error instanceof Error ? error.message : String(error),
                url: urls.cellarSparqlUrl,
              });
              throw error;
            }
          },
        },
      ],
      // Cellar publishes consolidated versions a few times a month: twice a day is prompt enough.
      schedules: [{ queue: QUEUE, cron: dailyCron(euLawPollTimes), key: "day" }],
      runNow: () => context.send(QUEUE, {}, { singletonKey: "eu-laws", singletonSeconds: 30 }),
    };
  },
});
