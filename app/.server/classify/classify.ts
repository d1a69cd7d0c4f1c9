/**
 * classify(doc): areas with reasons, jurisdiction, kind and relevance, layered: the
 * publishers' codes (tables/), keyword rules (tables/keywords.ts), then the bundled
 * linear model (model.json) for what the codes leave open. Pure: same document, same
 * tables, same model → same labels; `classifierVersion` changes when any of them does.
 */
import { createHash } from "node:crypto";
import type { AreaId } from "../../lib/taxonomy.ts";
import type { AreaLabel, Classification, SourceDocument } from "../documents/types.ts";
import { applyCodes } from "./codes.ts";
import { documentText } from "./document-text.ts";
import { jurisdictionOf } from "./jurisdiction.ts";
import { applyKeywords, matchTopics, type OrganisationTopic, stemDocument, type TopicMatch } from "./keywords.ts";
import { kindOf } from "./kind.ts";
import bundledModel from "./model.json" with { type: "json" };
import { CompiledModel, type LinearModel, modelFeatures } from "./model.ts";
import { type Reason, reason } from "./reasons.ts";
import { relevanceOf } from "./relevance.ts";
import { AreaEvidence } from "./scores.ts";
import * as boeTables from "./tables/boe.ts";
import * as eurlexTables from "./tables/eurlex.ts";
import eurovocAreas from "./tables/eurovoc-areas.json" with { type: "json" };
import { keywordRules } from "./tables/keywords.ts";

/** Bump when the combining rules below change (tables and model are hashed as data). */
const RULES_VERSION = "classify-rules@2";

/**
 * An area is kept from its threshold: calibrated per area on the training part
 * (`classify:train`, stored with the model), AREA_THRESHOLD where none was calibrated.
 * At most MAX_AREAS.
 */
export const AREA_THRESHOLD = 0.6;
/** A second or third area needs stronger evidence ("only when that area's team would clearly want it"). */
export const SECONDARY_MARGIN = 0.16;
export const SECONDARY_THRESHOLD = AREA_THRESHOLD + SECONDARY_MARGIN;
export const MAX_AREAS = 3;
/** The model's vote counts from this probability, weighted by MODEL_WEIGHT. */
export const MODEL_MIN_PROBABILITY = 0.4;
export const MODEL_WEIGHT = 0.75;

export interface ExplainedAreaLabel extends AreaLabel {
  id: AreaId;
  /** The reasons with a code and both languages, for the UI. */
  explanations: Reason[];
}

export interface ClassificationResult extends Classification {
  areas: ExplainedAreaLabel[];
  /** The organisation's own topics that matched (only when topics were passed). */
  topics: TopicMatch[];
  jurisdictionReasonEn: string;
  kindReasonEn: string;
  relevanceReasonEn: string;
}

export interface ClassifyOptions {
  topics?: readonly OrganisationTopic[];
  /** A model other than the bundled one (training and tests). */
  model?: LinearModel | null;
  /** Keyword phrases to leave out (the evaluation's leakage check). */
  withoutPhrases?: ReadonlySet<string>;
  /** Per-area thresholds other than the model's calibrated ones (calibration). */
  thresholds?: AreaThresholds;
}

/**
 * Per-area thresholds: `first` for an area to be kept at all, `second` for it to join a
 * stronger area as second or third (default: first + SECONDARY_MARGIN).
 */
export interface AreaThresholds {
  first?: Partial<Record<AreaId, number>>;
  second?: Partial<Record<AreaId, number>>;
}

let compiledBundled: CompiledModel | undefined;
const compiledOthers = new WeakMap<LinearModel, CompiledModel>();

function compiled(model: LinearModel): CompiledModel {
  if (model === (bundledModel as LinearModel)) {
    compiledBundled ??= new CompiledModel(model);
    return compiledBundled;
  }
  let c = compiledOthers.get(model);
  if (!c) {
    c = new CompiledModel(model);
    compiledOthers.set(model, c);
  }
  return c;
}

let version: string | undefined;

/** A hash of the rules, the tables and the model: reclassify when it changes. */
export function classifierVersion(): string {
  version ??= `cls-${createHash("sha256")
    .update(
      JSON.stringify({
        RULES_VERSION,
        boeTables,
        eurlexTables,
        eurovocAreas,
        keywordRules,
        AREA_THRESHOLD,
        SECONDARY_MARGIN,
        MAX_AREAS,
        MODEL_MIN_PROBABILITY,
        MODEL_WEIGHT,
      }),
    )
    .update(JSON.stringify(bundledModel))
    .digest("hex")
    .slice(0, 16)}`;
  return version;
}

export interface EvidenceResult {
  section: string;
  /** The area the BOE section decides alone (V-A), when it does. */
  exclusive?: AreaId;
  ranked: RankedEvidence[];
}

export type RankedEvidence = ReturnType<AreaEvidence["ranked"]>[number];

/** The evidence of the three layers for a document, before any threshold. */
export function areaEvidence(doc: SourceDocument, options: ClassifyOptions = {}): EvidenceResult {
  const text = documentText(doc);
  const evidence = new AreaEvidence();
  const { exclusive } = applyCodes(doc, text, evidence);
  if (exclusive) return { section: text.section, exclusive, ranked: evidence.ranked() };
  applyKeywords(text, stemDocument(text), evidence, options.withoutPhrases);
  const model = options.model === undefined ? (bundledModel as LinearModel) : options.model;
  if (model && Object.keys(model.areas).length > 0) {
    for (const { area, probability } of compiled(model).predict(modelFeatures(doc, text))) {
      if (probability >= MODEL_MIN_PROBABILITY) {
        evidence.add(area, probability * MODEL_WEIGHT, reason("model", { score: probability.toFixed(2) }), "model");
      }
    }
  }
  return { section: text.section, ranked: evidence.ranked() };
}

/** The areas chosen from the evidence with the given per-area thresholds. */
export function chooseAreas(result: EvidenceResult, thresholds: AreaThresholds): ExplainedAreaLabel[] {
  if (result.exclusive) {
    const entry = result.ranked.find((e) => e.area === result.exclusive);
    return [
      {
        id: result.exclusive,
        score: round(entry?.score ?? 0.95),
        reasons: (entry?.reasons ?? []).map((x) => x.es),
        explanations: entry?.reasons ?? [],
      },
    ];
  }
  return selectAreas(result.section, result.ranked, thresholds);
}

export function classify(doc: SourceDocument, options: ClassifyOptions = {}): ClassificationResult {
  const text = documentText(doc);
  const evidence = areaEvidence(doc, options);
  const model = options.model === undefined ? (bundledModel as LinearModel) : options.model;
  const areas = chooseAreas(evidence, options.thresholds ?? model?.thresholds ?? {});
  const stemmed = options.topics?.length ? stemDocument(text) : undefined;

  const jurisdiction = jurisdictionOf(doc, text);
  const kind = kindOf(doc, text);
  const relevance = relevanceOf(doc, text, kind.id);
  return {
    areas,
    jurisdiction: jurisdiction.id,
    jurisdictionReason: jurisdiction.reason.es,
    jurisdictionReasonEn: jurisdiction.reason.en,
    kind: kind.id,
    kindReason: kind.reason.es,
    kindReasonEn: kind.reason.en,
    relevance: relevance.id,
    relevanceReason: relevance.reason.es,
    relevanceReasonEn: relevance.reason.en,
    classifierVersion: classifierVersion(),
    topics: options.topics?.length && stemmed ? matchTopics(options.topics, text, stemmed) : [],
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function selectAreas(section: string, all: RankedEvidence[], thresholds: AreaThresholds): ExplainedAreaLabel[] {
  let ranked = all;
  const threshold = (area: AreaId) => thresholds.first?.[area] ?? AREA_THRESHOLD;
  const secondary = (area: AreaId) => thresholds.second?.[area] ?? threshold(area) + SECONDARY_MARGIN;
  // Appointments and competitions are public-sector matters; only justice (courts,
  // notaries) may join them.
  if (section === "2A" || section === "2B") {
    ranked = ranked.filter((e) => e.area === "public-sector" || e.area === "justice");
  }
  // Section IV is the courts' own announcements.
  if (section === "4") ranked = ranked.filter((e) => e.area === "justice");
  // public-sector is the home of matters no other area covers: it yields to a specific
  // area unless its own evidence is stronger.
  const specific = ranked.filter((e) => e.area !== "public-sector" && e.score >= threshold(e.area));
  const publicSector = ranked.find((e) => e.area === "public-sector");
  if (specific.length > 0 && publicSector && section !== "2A" && section !== "2B") {
    const top = specific[0];
    if (top && publicSector.score <= top.score + 0.1) ranked = ranked.filter((e) => e.area !== "public-sector");
  }
  const chosen: RankedEvidence[] = [];
  for (const e of ranked) {
    if (chosen.length >= MAX_AREAS) break;
    if (e.score >= (chosen.length === 0 ? threshold(e.area) : secondary(e.area))) chosen.push(e);
  }
  if (chosen.length === 0) {
    const fallback = reason("fallback", {});
    const best = ranked[0];
    if (best && best.score >= 0.3) chosen.push(best);
    else return [{ id: "public-sector", score: 0.5, reasons: [fallback.es], explanations: [fallback] }];
  }
  return chosen.map((e) => ({
    id: e.area,
    score: round(e.score),
    reasons: e.reasons.map((x) => x.es),
    explanations: e.reasons,
  }));
}
