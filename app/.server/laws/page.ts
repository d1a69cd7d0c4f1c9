/**
 * The law page's view model (/app/laws/:id): table of contents with each block's last change,
 * the text in force on a date (today by default), each block's versions (the amending act linked
 * to its document page when ingested and within reach, else to the official page), versions
 * published but not yet in force flagged, and the pending early warnings.
 */

import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { madridDate } from "../../lib/madrid-date.ts";
import type { Database } from "../db/client.ts";
import { documents, lawAnnouncements, lawChanges } from "../db/schema.ts";
import { reachable } from "../documents/reach.ts";
import { paragraphsOfVersion } from "../law-texts/diff.ts";
import {
  type BlockVersion,
  effectiveDate,
  headingLevel,
  type LawText,
  versionAt,
  versionsOf,
} from "../law-texts/model.ts";
import { loadLawText } from "../law-texts/store.ts";
import { type PartRange, partOf, splitIntoParts } from "./parts.ts";

export interface VersionView {
  normId: string;
  publishedOn: string;
  inForceOn: string | null;
  /** Where the amending act opens: its document page (ingested, in reach) or the official page. */
  href: string;
  internal: boolean;
  /** Enters into force after today. */
  future: boolean;
  /** Published by the page's date, in force only after it. */
  pendingOnDate: boolean;
  /** The version in force on the page's date. */
  current: boolean;
}

export interface BlockView {
  blockId: string;
  /** DOM id (block ids may end in a dot: `a85bis.`). */
  anchor: string;
  kind: string;
  title: string;
  /** Heading depth for the table of contents (1 = book/part … 6 = an article). */
  depth: number;
  heading: boolean;
  latestDate: string;
  expiresOn: string | null;
  /** The wording in force on the date (null: not in force then). */
  paragraphs: string[] | null;
  versions: VersionView[];
  /** Versions published by the date that enter into force after it. */
  pending: VersionView[];
  /** EU: the number this article had before it was renumbered. */
  renumberedFrom: string | null;
}

/** An entry of the table of contents: every block of the law, whatever part is shown. */
export interface TocEntry {
  blockId: string;
  anchor: string;
  title: string;
  heading: boolean;
  depth: number;
  latestDate: string;
  expiresOn: string | null;
  /** The part (1-based) that holds the block. */
  part: number;
}

export interface PartView {
  /** 1-based. */
  number: number;
  /** Titles of the part's first heading (or first block) and of its last block. */
  first: string;
  last: string;
}

/** Which part to show: a number, the whole text, or the part holding a block or a change's first block. */
export interface PartChoice {
  part?: string | null;
  block?: string | null;
  change?: string | null;
}

export interface LawPageView {
  law: {
    id: string;
    source: "boe" | "eu";
    title: string;
    eli: string | null;
    updatedAt: string | null;
    officialUrl: string;
  };
  date: string;
  today: string;
  isToday: boolean;
  /** Every block, for the table of contents and the follow form. */
  toc: TocEntry[];
  /** The blocks of the part shown (all of them for the whole text). */
  blocks: BlockView[];
  parts: PartView[];
  /** The part shown (1-based), or null for the whole text. */
  part: number | null;
  /** Opened from a change's alert (`?change=`): the blocks it changed or named. */
  change: { id: string; blocks: Array<{ title: string; anchor: string; part: number }> } | null;
  announcements: Array<{ actId: string; href: string; relation: string; relationText: string; publishedOn: string }>;
  /** The acts that amended the law, as its consolidated text records them: newest first. */
  amendedBy: Array<{ actId: string; href: string; publishedOn: string; blocks: number }>;
}

export const anchorOf = (blockId: string) => `b-${blockId.replace(/[^A-Za-z0-9_-]/g, "_")}`;

/** The official page of an act: BOE for BOE-A ids, EUR-Lex for CELEX numbers. */
export function officialActUrl(id: string): string {
  if (/^BOE-[A-Z]-\d{4}-\d+$/.test(id)) return `https://www.boe.es/buscar/act.php?id=${encodeURIComponent(id)}`;
  return `https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:${encodeURIComponent(id)}`;
}

/** Stored documents for the acts named (BOE id or CELEX) within the organisation's reach: act id → document id. */
export async function ingestedActs(
  database: Database,
  organizationId: string,
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await database.db
    .select({ id: documents.id, sourceId: documents.sourceId })
    .from(documents)
    .where(and(inArray(documents.sourceId, ids), sql`${reachable(organizationId, "documents")}`));
  return new Map(rows.map((r) => [r.sourceId, r.id]));
}

function versionView(
  v: BlockVersion,
  date: string,
  today: string,
  current: BlockVersion | undefined,
  acts: Map<string, string>,
): VersionView {
  const doc = acts.get(v.normId);
  return {
    normId: v.normId,
    publishedOn: v.publishedOn,
    inForceOn: v.inForceOn,
    href: doc ? `/app/documents/${doc}` : officialActUrl(v.normId),
    internal: Boolean(doc),
    future: effectiveDate(v) > today,
    pendingOnDate: v.publishedOn <= date && effectiveDate(v) > date,
    current: current === v,
  };
}

/** A change of this law (by id), with the blocks it changed or named; undefined otherwise. */
async function changeOfLaw(database: Database, lawId: string, changeId: string | null | undefined) {
  if (!changeId || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(changeId)) return undefined;
  const [change] = await database.db
    .select({ id: lawChanges.id, blockIds: lawChanges.blockIds })
    .from(lawChanges)
    .where(and(eq(lawChanges.id, changeId), eq(lawChanges.lawId, lawId)));
  return change;
}

/** The part to show (0-based), or null for the whole text. */
function chosenPart(
  choice: PartChoice,
  parts: PartRange[],
  indexOf: Map<string, number>,
  changed: string[] | undefined,
): number | null {
  if (choice.part === "all") return null;
  const asked = Number(choice.part);
  if (choice.part && Number.isInteger(asked) && asked >= 1 && asked <= parts.length) return asked - 1;
  const block = choice.block ?? changed?.find((id) => indexOf.has(id));
  const index = block === undefined ? undefined : indexOf.get(block);
  return index === undefined ? 0 : partOf(parts, index);
}

/**
 * The page for a law on `date` (YYYY-MM-DD), one part of it (`choice`: the first part by default);
 * undefined when the law is not stored.
 */
export async function lawPageView(
  database: Database,
  organizationId: string,
  lawId: string,
  date: string,
  today = madridDate(),
  choice: PartChoice = {},
  preloaded?: LawText,
): Promise<LawPageView | undefined> {
  const text = preloaded ?? (await loadLawText(database, lawId));
  if (!text) return undefined;
  const ordered = [...text.blocks].sort((a, b) => a.position - b.position);
  const latest = ordered.map((block) => versionsOf(block).at(-1));
  const parts = splitIntoParts(
    ordered.map((block, i) => ({ heading: block.kind === "encabezado", size: latest[i]?.text.length ?? 0 })),
  );
  const indexOf = new Map(ordered.map((block, i) => [block.blockId, i]));
  const change = await changeOfLaw(database, lawId, choice.change);
  const shown = chosenPart(choice, parts, indexOf, change?.blockIds);
  // A law with no blocks (not fetched yet) has no parts: the whole (empty) text, never a crash.
  const range =
    shown === null ? { start: 0, end: ordered.length } : (parts[shown] ?? { start: 0, end: ordered.length });

  const normIds = new Set<string>();
  for (const block of ordered.slice(range.start, range.end)) for (const v of block.versions) normIds.add(v.normId);
  const [acts, pending] = await Promise.all([
    ingestedActs(database, organizationId, [...normIds]),
    database.db
      .select()
      .from(lawAnnouncements)
      .where(and(eq(lawAnnouncements.lawId, lawId), isNull(lawAnnouncements.consolidatedAt))),
  ]);
  // Every act that gave a block a wording, the law itself aside (its original text).
  const amending = new Map<string, { publishedOn: string; blocks: Set<string> }>();
  for (const block of ordered)
    for (const v of block.versions) {
      if (v.normId === lawId) continue;
      const entry = amending.get(v.normId) ?? { publishedOn: v.publishedOn, blocks: new Set<string>() };
      if (v.publishedOn < entry.publishedOn) entry.publishedOn = v.publishedOn;
      entry.blocks.add(block.blockId);
      amending.set(v.normId, entry);
    }
  const [announcementActs, amendingActs] = await Promise.all([
    ingestedActs(
      database,
      organizationId,
      pending.map((a) => a.actId),
    ),
    ingestedActs(database, organizationId, [...amending.keys()]),
  ]);
  const renumbered = ((text.law.metadata as { renumbered?: Record<string, { from: string }> }).renumbered ??
    {}) as Record<string, { from: string }>;
  const titleOf = (block: (typeof ordered)[number]) => block.title || block.blockId;
  const toc: TocEntry[] = ordered.map((block, i) => {
    const heading = block.kind === "encabezado";
    return {
      blockId: block.blockId,
      anchor: anchorOf(block.blockId),
      title: titleOf(block),
      heading,
      depth: heading ? headingLevel(block.title) : 6,
      latestDate: block.latestDate,
      expiresOn: block.expiresOn ?? null,
      part: partOf(parts, i) + 1,
    };
  });
  const blocks: BlockView[] = [];
  for (const block of ordered.slice(range.start, range.end)) {
    const sorted = versionsOf(block);
    const current = versionAt(block, date);
    const heading = block.kind === "encabezado";
    const views = sorted.map((v) => versionView(v, date, today, current, acts));
    blocks.push({
      blockId: block.blockId,
      anchor: anchorOf(block.blockId),
      kind: block.kind,
      title: titleOf(block),
      depth: heading ? headingLevel(block.title) : 6,
      heading,
      latestDate: block.latestDate,
      expiresOn: block.expiresOn ?? null,
      paragraphs: current ? paragraphsOfVersion(current) : null,
      versions: views,
      pending: views.filter((v) => v.pendingOnDate),
      renumberedFrom: renumbered[block.blockId]?.from ?? null,
    });
  }
  return {
    law: {
      id: text.law.id,
      source: text.law.source,
      title: text.law.title,
      eli: text.law.eli,
      updatedAt: text.law.updatedAt,
      officialUrl: officialActUrl(text.law.id),
    },
    date,
    today,
    isToday: date === today,
    toc,
    blocks,
    parts: parts.map((part, i) => {
      const firstHeading = ordered.slice(part.start, part.end).find((b) => b.kind === "encabezado");
      const first = ordered[part.start];
      const last = ordered[part.end - 1];
      return {
        number: i + 1,
        first: firstHeading ? titleOf(firstHeading) : first ? titleOf(first) : "",
        last: last ? titleOf(last) : "",
      };
    }),
    part: shown === null ? null : shown + 1,
    change: change
      ? {
          id: change.id,
          blocks: change.blockIds.flatMap((id) => {
            const entry = toc[indexOf.get(id) ?? -1];
            return entry ? [{ title: entry.title, anchor: entry.anchor, part: entry.part }] : [];
          }),
        }
      : null,
    announcements: pending.map((a) => {
      const doc = a.documentId && announcementActs.has(a.actId) ? announcementActs.get(a.actId) : undefined;
      return {
        actId: a.actId,
        href: doc ? `/app/documents/${doc}` : officialActUrl(a.actId),
        relation: a.relation,
        relationText: a.relationText,
        publishedOn: a.publishedOn,
      };
    }),
    amendedBy: [...amending.entries()]
      .sort(([a, x], [b, y]) => y.publishedOn.localeCompare(x.publishedOn) || a.localeCompare(b))
      .map(([actId, entry]) => {
        const doc = amendingActs.get(actId);
        return {
          actId,
          href: doc ? `/app/documents/${doc}` : officialActUrl(actId),
          publishedOn: entry.publishedOn,
          blocks: entry.blocks.size,
        };
      }),
  };
}
