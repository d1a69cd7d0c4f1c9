/** The BOE (Boletín Oficial del Estado): each day's summary and every item's XML document. */
import { defineSource } from "../plugin.ts";
import { boeClassification } from "./classification.ts";
import { boeConfig } from "./config.ts";
import { BOE_DOCUMENT_PARSER } from "./document.ts";
import { boePlan } from "./jobs.ts";
import { BOE_SUMMARY_PARSER } from "./summary.ts";

export const boeSource = defineSource({
  id: "boe",
  labels: { es: "BOE", en: "BOE" },
  descriptions: {
    es: "Boletín Oficial del Estado: el sumario de cada día y cada una de sus disposiciones.",
    en: "Spain's Official State Gazette: each day's summary and every item in it.",
  },
  selectable: true,
  defaultOn: true,
  parsers: [BOE_SUMMARY_PARSER, BOE_DOCUMENT_PARSER],
  config: boeConfig,
  classification: boeClassification,
  plan: boePlan,
});
