/**
 * `npm run platform -- classify:train`: rebuilds the bundled model
 * (app/.server/classify/model.json) from the training part of the labelled set. The
 * documents are parsed from the recorded sources with the real parsers; training is
 * seeded, so the same set gives the same model byte for byte.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { documentText } from "../../app/.server/classify/document-text.ts";
import { loadDocument, projectRoot, readLabelledSet } from "../../app/.server/classify/labelled-set.ts";
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
  const examples = entries.map((entry) => {
    const doc = loadDocument(entry);
    return { features: modelFeatures(doc, documentText(doc)), areas: entry.areas };
  });
  const started = performance.now();
  const model = trainModel(examples);
  const file = path.join(projectRoot, "app/.server/classify/model.json");
  writeFileSync(file, `${JSON.stringify(model)}\n`);
  // Keep the committed file in the project's formatting (lint checks it).
  execFileSync(path.join(projectRoot, "node_modules/.bin/biome"), ["format", "--write", file], { stdio: "ignore" });
  const areas = Object.keys(model.areas).length;
  process.stdout.write(
    `trained on ${examples.length} documents: ${model.features.length} features, ${areas} areas, ${Math.round(performance.now() - started)} ms\nwrote ${path.relative(projectRoot, file)}\n`,
  );
  return 0;
}
