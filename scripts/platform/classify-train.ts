/**
 * `npm run platform -- classify:train`: rebuilds the bundled model
 * (app/.server/classify/model.json) from the training part of the labelled set, and
 * calibrates a threshold per area on the same training part (cross-validated model
 * scores; calibrate.ts). The documents are parsed from the recorded sources with the real
 * parsers; training is seeded, so the same set gives the same model byte for byte. The
 * held-out part is never read here.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { calibrateThresholds, crossValidatedEvidence, modelUnit } from "../../app/.server/classify/calibrate.ts";
import { chooseAreas } from "../../app/.server/classify/classify.ts";
import { documentText } from "../../app/.server/classify/document-text.ts";
import { loadDocument, projectRoot, readLabelledSet } from "../../app/.server/classify/labelled-set.ts";
import { macroF1Over, multiLabelReport } from "../../app/.server/classify/metrics.ts";
import { modelFeatures, trainModel } from "../../app/.server/classify/model.ts";

export const summary = "rebuild the classification model from the training part of the labelled set";

export async function run(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (error) {
    // Missing fixtures, a malformed labelled line, a payload the parsers refuse: one clear line.
    process.stderr.write(`classify: cannot train: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    process.stdout.write("usage: npm run platform -- classify:train\n");
    return 0;
  }
  const entries = readLabelledSet().filter((entry) => entry.split === "train");
  const units = entries.map((entry) => ({ sourceId: entry.sourceId, doc: loadDocument(entry), areas: entry.areas }));
  const examples = units
    .filter(modelUnit)
    .map((unit) => ({ features: modelFeatures(unit.doc, documentText(unit.doc)), areas: unit.areas }));
  const started = performance.now();
  const trained = trainModel(examples);
  const folds = 5;
  const evidence = crossValidatedEvidence(units, folds);
  const thresholds = calibrateThresholds(
    evidence,
    units.map((unit) => unit.areas),
  );
  // The development figures: the training part, each unit scored by a model that did not see it.
  const development = multiLabelReport(
    evidence.map((e, i) => ({
      gold: units[i]?.areas ?? [],
      predicted: chooseAreas(e, thresholds).map((a) => a.id),
    })),
  );
  const model = { ...trained, thresholds };
  const file = path.join(projectRoot, "app/.server/classify/model.json");
  writeFileSync(file, `${JSON.stringify(model)}\n`);
  // Keep the committed file in the project's formatting (lint checks it).
  execFileSync(path.join(projectRoot, "node_modules/.bin/biome"), ["format", "--write", file], { stdio: "ignore" });
  const areas = Object.keys(model.areas).length;
  process.stdout.write(
    `model trained on ${examples.length} whole documents (thresholds calibrated on ${units.length} units): ${model.features.length} features, ${areas} areas, ${Math.round(performance.now() - started)} ms\n` +
      `thresholds calibrated on the training part (first place / second or third):\n${Object.entries(thresholds.first)
        .map(
          ([area, value]) =>
            `  ${area.padEnd(16)} ${value} / ${thresholds.second[area as keyof typeof thresholds.second]}`,
        )
        .join("\n")}\n` +
      `development (training part, ${folds} folds by act): macro F1 (≥ 5 units) ${macroF1Over(development, 5).macroF1.toFixed(3)}, micro F1 ${development.microF1.toFixed(3)}\n` +
      `wrote ${path.relative(projectRoot, file)}\n`,
  );
  return 0;
}
