/**
 * The catalogue of laws to follow as a source plug-in (issue 39, decision 0140): the BOE's
 * consolidated legislation list and Cellar's EU acts with consolidated versions, refreshed once a
 * day early in the morning (sync.ts: the BOE list since the newest update held, the EU list
 * whole), and at start when the catalogue is empty. It stores no documents. Same pacing lanes as
 * the BOE ("boe") and Cellar ("cellar").
 */
import { lawCatalogue } from "../../db/schema.ts";
import { recordStatus } from "../ingest.ts";
import { defineSource } from "../plugin.ts";
import { CATALOGUE_PARSER, syncCatalogue } from "./sync.ts";

const QUEUE = "ingest-law-catalogue";

export const lawCatalogueSource = defineSource({
  id: "law-catalogue",
  labels: { es: "Catálogo de normas (BOE y UE)", en: "Catalogue of laws (BOE and EU)" },
  descriptions: {
    es: "Las normas consolidadas del BOE y los actos consolidados de la UE que se pueden seguir, buscables por título, número y nombre común.",
    en: "The BOE's consolidated laws and the EU's consolidated acts you can follow, searchable by title, number and common name.",
  },
  selectable: false,
  storesDocuments: false,
  parsers: [CATALOGUE_PARSER],
  // Not an organisation's source: no line on the Sources page (the catalogue page says how many
  // laws it holds and when it was refreshed; its status is recorded as every source's).
  async entries() {
    return [];
  },
  plan(context) {
    const settings = context.settings as { boeApiUrl?: string; cellarSparqlUrl?: string };
    const boeApiUrl = settings.boeApiUrl ?? "https://www.boe.es";
    const cellarSparqlUrl = settings.cellarSparqlUrl ?? "https://publications.europa.eu/webapi/rdf/sparql";
    const send = (seconds: number) =>
      context.send(QUEUE, {}, { singletonKey: "law-catalogue", singletonSeconds: seconds });
    return {
      queues: [
        {
          name: QUEUE,
          async work() {
            const runStartedAt = new Date();
            const result = await syncCatalogue({
              database: context.database,
              boeHttp: context.http("boe"),
              cellarHttp: context.http("cellar"),
              boeApiUrl,
              cellarSparqlUrl,
              log: context.log,
            });
            const failed = "failed" in result.boe ? result.boe : "failed" in result.eu ? result.eu : undefined;
            if (failed) {
              await recordStatus(context.database, "law-catalogue", {
                ok: false,
                error: failed.failed,
                url:
                  "failed" in result.boe ? `${boeApiUrl}/datosabiertos/api/legislacion-consolidada` : cellarSparqlUrl,
              });
              return;
            }
            const added =
              ("entries" in result.boe ? result.boe.entries : 0) + ("entries" in result.eu ? result.eu.entries : 0);
            await recordStatus(context.database, "law-catalogue", { ok: true, added, runStartedAt });
          },
        },
      ],
      // Both lists change daily; once a day, before the working day, is current enough.
      schedules: [{ queue: QUEUE, cron: "50 6 * * *", key: "day" }],
      start: async () => {
        const [any] = await context.database.db.select({ id: lawCatalogue.id }).from(lawCatalogue).limit(1);
        if (!any) await send(3600);
      },
      runNow: () => send(30),
    };
  },
});
