/**
 * A long law is read one part at a time. The whole text of a large code is megabytes: rendering it
 * and sending it again for hydration made the largest recorded law's page take over 400 ms, and a
 * real code (the Civil Code, the Companies Act) is several times larger. A part is a run of
 * consecutive blocks of about `budget` characters that starts at a heading (a title, a chapter) so
 * that it reads as a unit; the whole text stays one link away (`?part=all`) for reading at length,
 * searching in the browser and printing.
 *
 * Parts are cut on the size of each block's latest wording, not the wording on the page's date,
 * so a part keeps its blocks whatever date is chosen.
 */

export interface PartInput {
  heading: boolean;
  /** Characters of the block's latest wording. */
  size: number;
}

/** Blocks [start, end) of the law, in order. */
export interface PartRange {
  start: number;
  end: number;
}

/** About this many characters of law text per part (a chapter, some 10–15 printed pages). */
export const partBudget = 30_000;

/**
 * Cuts the blocks into parts: a part closes before a heading once it holds `budget` characters,
 * or before any block once it holds half as much again (a law with few headings). A part never ends on a
 * heading (the heading goes with what it heads), and a last part under a quarter of the budget
 * joins the one before.
 */
export function splitIntoParts(blocks: PartInput[], budget = partBudget): PartRange[] {
  const parts: PartRange[] = [];
  let start = 0;
  let size = 0;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as PartInput;
    const previous = blocks[i - 1];
    const mayCut = i > start && previous !== undefined && !previous.heading;
    if (mayCut && ((block.heading && size >= budget) || size >= 1.5 * budget)) {
      parts.push({ start, end: i });
      start = i;
      size = 0;
    }
    size += block.size;
  }
  if (blocks.length > start) {
    const last = parts.at(-1);
    if (last && size < budget / 4) last.end = blocks.length;
    else parts.push({ start, end: blocks.length });
  }
  return parts;
}

/** The index of the part holding block `index` (0 when out of range). */
export function partOf(parts: PartRange[], index: number): number {
  const found = parts.findIndex((part) => index >= part.start && index < part.end);
  return found < 0 ? 0 : found;
}
