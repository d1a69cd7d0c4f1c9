/**
 * The shapes that join the platform's stages: a source's parser produces a
 * SourceDocument, the classifier reads it and returns a Classification, the store
 * keeps both. Ids of areas, jurisdictions and kinds are the taxonomy's
 * (docs/taxonomy.md).
 */

import type { SourceId } from "../sources/registry.ts";

/** A registered source's id, derived from the registry (app/.server/sources/registry.ts). */
export type { SourceId };

/** A publisher's own code with its label, e.g. a BOE materia `{ code: "60", label: "Activos financieros" }`. */
export interface CodedLabel {
  code: string;
  label: string;
}

/** A link from this document to another norm, as the publisher states it. */
export interface SourceRelation {
  /** Normalised: "modifies", "repeals", "cites", "related", "transposes", "corrects", "based-on", "amended-by", ... */
  type: string;
  /** The publisher's own relation code where it has one (BOE `palabra@codigo`). */
  code?: string;
  /** The target's id in its source (BOE-A-…, CELEX). */
  targetSourceId: string;
  /** The publisher's wording, e.g. "la Ley 19/1993". */
  label: string;
  /** "earlier" (this document acts on the target) or "later" (the target acts on this one). */
  direction: "earlier" | "later";
}

/** One block of the text, in reading order; never raw source HTML. */
export interface Paragraph {
  /** "heading" for titles of parts, chapters, articles; "paragraph" otherwise; "table" as plain rows. */
  kind: "heading" | "paragraph" | "table";
  text: string;
  /** The publisher's class (BOE `articulo`, `parrafo_2`, `centro_negrita`), kept for styling. */
  style?: string;
}

/** Where a payload came from: one per fetched payload (summary, document XML, SPARQL, XHTML). */
export interface Provenance {
  url: string;
  fetchedAt: string;
  sha256: string;
  /** e.g. "boe-document@1". */
  parser: string;
  /** The bundled recorded sample: `url` is where the bytes were recorded, not a fetch of today. */
  sample?: true;
}

/** A parsed document, before classification. Only what the source says. */
export interface SourceDocument {
  source: SourceId;
  /** BOE-A-2024-123, a CELEX number, or a feed entry's id. */
  sourceId: string;
  /** The language of the text and main title: "es" or "en". */
  language: "es" | "en";
  title: string;
  titles: { es?: string; en?: string };
  /** YYYY-MM-DD */
  publishedOn: string;
  /** YYYY-MM-DD of the disposition / adoption, when known. */
  adoptedOn?: string;
  /** YYYY-MM-DD; several for EU acts with staggered application. */
  effectiveDates: string[];
  officialUrl: string;
  /** Links to other renderings (pdf, html, xml, eli). */
  links: { pdf?: string; html?: string; xml?: string; eli?: string };

  /** BOE section code as in the summary: "1", "2A", "2B", "3", "4", "5A", "5B", "T". */
  section?: string;
  /** BOE department (or EU author) with its code. */
  department?: CodedLabel;
  /** The summary's epigraph (BOE). */
  epigraph?: string;
  /** The publisher's rank or resource type: BOE rango, EU resource-type code (REG, DIR, DEC_IMPL, ...). */
  rank?: CodedLabel;
  /** BOE `origen_legislativo` (Estatal, Autonómico) where given. */
  origin?: CodedLabel;
  /** BOE materias. */
  subjects: CodedLabel[];
  /** BOE alertas (topic channels). */
  alerts: CodedLabel[];
  /** EuroVoc concepts (code = the concept's id). */
  eurovoc: CodedLabel[];
  /** EUR-Lex directory codes. */
  directoryCodes: CodedLabel[];
  /** BOE notas and similar free notes. */
  notes: string[];
  relations: SourceRelation[];
  paragraphs: Paragraph[];
  provenance: Provenance[];
  /** The feed's own name for feed entries (e.g. "CNMV — Novedades"). */
  feedName?: string;
  /**
   * A sample document replayed as if published today (issue 39): the day the recording was
   * published (YYYY-MM-DD). Its dates are shifted by the days between then and the load.
   */
  replayedFrom?: string;
}

export type Relevance = "high" | "medium" | "low";

export interface AreaLabel {
  /** A taxonomy area id, e.g. "banking". */
  id: string;
  /** 0..1 */
  score: number;
  /** Why, in plain words, e.g. "BOE materia 60 «Activos financieros»", "keyword «blanqueo de capitales»", "model 0.82". */
  reasons: string[];
}

export interface Classification {
  areas: AreaLabel[];
  /** "EU", "ES" or "ES-xx". */
  jurisdiction: string;
  jurisdictionReason: string;
  /** A taxonomy kind id, e.g. "royal-decree". */
  kind: string;
  kindReason: string;
  relevance: Relevance;
  relevanceReason: string;
  /** Version of the tables, rules and model that produced these labels (reclassify when it changes). */
  classifierVersion: string;
}
