/**
 * Consolidated Spanish laws (BOE `legislacion-consolidada`) as a source plug-in: the laws members
 * follow, polled hourly during the day (poll.ts: change list, only moved blocks), every change
 * handed to the laws' alerts (alerting.ts, context.lawAlerts). It stores no documents: its rows say what to fetch,
 * so it runs whenever ingestion is on. Same host and pacing lane as the BOE ("boe").
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { alertProfiles } from "../../db/schema.ts";
import { recordStatus } from "../ingest.ts";
import { boeLawPollTimes, dailyCron } from "../law-poll-times.ts";
import { defineSource } from "../plugin.ts";
import { pollAndAlert } from "./alerting.ts";
import { BOE_CONSOLIDATED_PARSER } from "./parse.ts";

const QUEUE = "ingest-boe-laws";

export const boeLawsSource = defineSource({
  id: "boe-laws",
  labels: { es: "Legislación consolidada (BOE)", en: "Consolidated legislation (BOE)" },
  descriptions: {
    es: "El texto consolidado de las normas que sigue tu organización, artículo por artículo.",
    en: "The consolidated text of the laws your organisation follows, article by article.",
  },
  selectable: false,
  storesDocuments: false,
  parsers: [BOE_CONSOLIDATED_PARSER],
  // On an organisation's Sources page only once it follows a law.
  async entries(db, organizationId) {
    const [follow] = await db
      .select({ id: alertProfiles.id })
      .from(alertProfiles)
      .where(and(eq(alertProfiles.organizationId, organizationId), isNotNull(alertProfiles.lawId)))
      .limit(1);
    return follow ? [{ id: "boe-laws", statusKey: "boe-laws", name: null, url: null }] : [];
  },
  plan(context) {
    const baseUrl = (context.settings as { boeApiUrl?: string }).boeApiUrl ?? "https://www.boe.es";
    return {
      queues: [
        {
          name: QUEUE,
          async work() {
            const runStartedAt = new Date();
            try {
              const result = await pollAndAlert({
                database: context.database,
                http: context.http("boe"),
                baseUrl,
                log: context.log,
                lawAlerts: context.lawAlerts,
              });
              const failed = result.laws.find((law) => law.status === "failed");
              if (failed)
                await recordStatus(context.database, "boe-laws", {
                  ok: false,
                  error: `${failed.lawId}: ${failed.error ?? "failed"}`,
                  url: `${baseUrl}/datosabiertos/api/legislacion-consolidada/id/${failed.lawId}`,
                });
              else
                await recordStatus(context.database, "boe-laws", {
                  ok: true,
                  added: result.changes.length,
                  runStartedAt,
                });
            } catch (error) {
              await recordStatus(context.database, "boe-laws", {
                ok: false,
                error: error instanceof Error ? error.message : String(error),
                url: `${baseUrl}/datosabiertos/api/legislacion-consolidada`,
              });
              throw error;
            }
          },
        },
      ],
      schedules: [{ queue: QUEUE, cron: dailyCron(boeLawPollTimes), key: "day" }],
      start: async () => {
        await context.send(QUEUE, {}, { singletonKey: "boe-laws", singletonSeconds: 60 });
      },
      runNow: () => context.send(QUEUE, {}, { singletonKey: "boe-laws", singletonSeconds: 30 }),
    };
  },
});
