/** EUR-Lex: the acts of the Official Journal's L series (RSS), their Cellar metadata and texts. */
import { ingestEurlex } from "../ingest.ts";
import { defineSource } from "../plugin.ts";
import { CELLAR_METADATA_PARSER, CELLAR_TEXT_PARSER } from "./cellar.ts";
import { eurlexClassification } from "./classification.ts";
import { eurlexConfig } from "./config.ts";
import { EURLEX_FEED_PARSER } from "./feed.ts";

const QUEUE = "ingest-eurlex";

export const eurlexSource = defineSource({
  id: "eurlex",
  labels: { es: "EUR-Lex", en: "EUR-Lex" },
  descriptions: {
    es: "Diario Oficial de la Unión Europea, serie L: actos legislativos y no legislativos.",
    en: "Official Journal of the European Union, L series: legislative and non-legislative acts.",
  },
  selectable: true,
  defaultOn: true,
  parsers: [EURLEX_FEED_PARSER, CELLAR_METADATA_PARSER, CELLAR_TEXT_PARSER],
  config: eurlexConfig,
  classification: eurlexClassification,
  plan: (context) => ({
    queues: [
      {
        name: QUEUE,
        async work() {
          await ingestEurlex(context.deps({ freshSeconds: context.settings.intervalSeconds }));
        },
      },
    ],
    // Every interval from 06:00 to 21:00 (Madrid).
    schedules: [{ queue: QUEUE, cron: `${context.everyInterval} 6-20 * * *`, key: "day" }],
    runNow: () => context.send(QUEUE, {}, { singletonKey: "eurlex:now", singletonSeconds: 30 }),
  }),
});
