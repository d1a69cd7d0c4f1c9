/**
 * The consolidated-law model shared by both law sources (BOE consolidated legislation and EU
 * consolidated versions from Cellar), the law page and the API. A law is a list of blocks in text
 * order (articles, headings, provisions, annexes…); each block has one or more versions (wordings),
 * each enacted by a norm with a publication date and an entry-into-force date.
 *
 * Rules every consumer relies on:
 * - versions are sorted by date here (the BOE lists them out of order: never take the last one);
 * - the wording in force on a date is the latest version whose entry into force (or, without one,
 *   publication) is on or before that date; a block whose first version is later did not exist yet;
 * - a block with `expiresOn` (BOE `fecha_caducidad`, e.g. repealed articles that keep their old
 *   version and an unchanged index date) is not in force from that date on.
 * Dates are ISO `YYYY-MM-DD` strings (compared as strings).
 */

export type LawSource = "boe" | "eu";

export interface Law {
  /** BOE-A-… id of the enacting act, or the act's CELEX number (32016R0679). */
  id: string;
  source: LawSource;
  title: string;
  /** ELI URL when known. */
  eli: string | null;
  /** The source's metadata (BOE `metadatos` as parsed, Cellar's SPARQL binding…). */
  metadata: Record<string, unknown>;
  /** The source's date of last update of the consolidation (BOE `fecha_actualizacion`), ISO timestamp. */
  updatedAt: string | null;
}

/** BOE `tipo`: nota_inicial, preambulo, encabezado, precepto, firma, anexo (EU: article, heading…). */
export type BlockKind = string;

export interface Block {
  lawId: string;
  /** The source's block id (BOE `a9`, `dfseptima`, `a85bis.`; EU `art_5`). */
  blockId: string;
  kind: BlockKind;
  title: string;
  /** Order in the text (0-based). */
  position: number;
  /** Date of the block's latest version (the index date), YYYY-MM-DD. */
  latestDate: string;
  /** Not in force from this date (BOE `fecha_caducidad`), YYYY-MM-DD. */
  expiresOn?: string | null;
}

export interface BlockVersion {
  lawId: string;
  blockId: string;
  /** The norm that gave this wording (the law itself for the original one). */
  normId: string;
  publishedOn: string;
  /** Entry into force; null when the source gives none. */
  inForceOn: string | null;
  /** The version's markup as the source gives it (paragraphs, tables, notes). */
  html: string;
  /** Plain text, whitespace normalised, notes (blockquote) left out. */
  text: string;
  /** sha256 of `text`: a wording corrected in place keeps its dates but changes this. */
  hash: string;
}

/** A law with its blocks, each with its versions (as loaded by law-texts/store.ts). */
export interface LawText {
  law: Law;
  blocks: Array<Block & { versions: BlockVersion[] }>;
}

/** The date a version applies from: entry into force, else publication. */
export function effectiveDate(version: Pick<BlockVersion, "inForceOn" | "publishedOn">): string {
  return version.inForceOn || version.publishedOn;
}

/** Versions of a block, oldest first (by entry into force, then publication, then norm id). */
export function versionsOf<V extends Pick<BlockVersion, "inForceOn" | "publishedOn" | "normId">>(block: {
  versions: readonly V[];
}): V[] {
  return [...block.versions].sort(
    (a, b) =>
      effectiveDate(a).localeCompare(effectiveDate(b)) ||
      a.publishedOn.localeCompare(b.publishedOn) ||
      a.normId.localeCompare(b.normId),
  );
}

/** The version of a block in force on `date` (YYYY-MM-DD); undefined when none is (not yet, or expired). */
export function versionAt<V extends Pick<BlockVersion, "inForceOn" | "publishedOn" | "normId">>(
  block: { versions: readonly V[]; expiresOn?: string | null },
  date: string,
): V | undefined {
  if (block.expiresOn && block.expiresOn <= date) return undefined;
  let found: V | undefined;
  for (const version of versionsOf(block)) {
    if (effectiveDate(version) <= date) found = version;
  }
  return found;
}

export interface BlockAt {
  block: Block;
  version: BlockVersion;
  /** Later versions already published but not yet in force on `date`. */
  pending: BlockVersion[];
}

/** The text of a law in force on `date`: its blocks in order, each with the wording in force then. */
export function textAt(law: LawText, date: string): BlockAt[] {
  const out: BlockAt[] = [];
  for (const block of [...law.blocks].sort((a, b) => a.position - b.position)) {
    const version = versionAt(block, date);
    if (!version) continue;
    const { versions, ...plain } = block;
    const pending = versionsOf(block).filter((v) => v.publishedOn <= date && effectiveDate(v) > date);
    out.push({ block: plain, version, pending });
  }
  return out;
}

/** What a follow covers: the whole law, or blocks (articles, or headings standing for what they head). */
export interface LawScope {
  lawId: string;
  /** Empty = the whole law. */
  blockIds: string[];
}

/** Heading levels by title: a heading covers the blocks after it up to the next heading of the same or a higher level. */
export function headingLevel(title: string): number {
  const t = title.trim().toUpperCase();
  if (/^LIBRO\b/.test(t)) return 1;
  if (/^T[ÍI]TULO\b/.test(t)) return 2;
  if (/^CAP[ÍI]TULO\b/.test(t)) return 3;
  if (/^SECCI[ÓO]N\b/.test(t)) return 4;
  if (/^SUBSECCI[ÓO]N\b/.test(t)) return 5;
  return 6;
}

/**
 * The block ids a scope covers, given the law's blocks in order: an article stands for itself,
 * a heading (kind `encabezado`) for itself and everything under it. Empty scope = every block.
 */
export function coveredBlocks(
  blocks: readonly Pick<Block, "blockId" | "kind" | "title" | "position">[],
  scope: string[],
): Set<string> {
  const ordered = [...blocks].sort((a, b) => a.position - b.position);
  if (scope.length === 0) return new Set(ordered.map((b) => b.blockId));
  const wanted = new Set(scope);
  const out = new Set<string>();
  for (let i = 0; i < ordered.length; i++) {
    const block = ordered[i] as (typeof ordered)[number];
    if (!wanted.has(block.blockId)) continue;
    out.add(block.blockId);
    if (block.kind !== "encabezado") continue;
    const level = headingLevel(block.title);
    for (let j = i + 1; j < ordered.length; j++) {
      const next = ordered[j] as (typeof ordered)[number];
      if (next.kind === "encabezado" && headingLevel(next.title) <= level) break;
      // Final, additional, transitional and repealing provisions, the signature and annexes sit outside titles and chapters.
      if (/^disposici[oó]n|^\[?firma|^anexo/i.test(next.title) || next.kind === "firma") break;
      out.add(next.blockId);
    }
  }
  return out;
}
