/**
 * The law page's view model (/app/laws/:id): table of contents with each block's last change,
 * the text in force on a date (today by default), each block's versions (the amending act linked
 * to its document page when ingested and within reach, else to the official page), versions
 * published but not yet in force flagged, and the pending early warnings.
 */

import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { madridDate } from "../../lib/madrid-date.ts";
import type { Database } from "../db/client.ts";
import { documents, lawAnnouncements } from "../db/schema.ts";
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
  blocks: BlockView[];
  announcements: Array<{ actId: string; href: string; relation: string; relationText: string; publishedOn: string }>;
}

export function isIsoDate(value: string | null | undefined): value is string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
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

/** The page for a law on `date` (YYYY-MM-DD); undefined when the law is not stored. */
export async function lawPageView(
  database: Database,
  organizationId: string,
  lawId: string,
  date: string,
  today = madridDate(),
  preloaded?: LawText,
): Promise<LawPageView | undefined> {
  const text = preloaded ?? (await loadLawText(database, lawId));
  if (!text) return undefined;
  const normIds = new Set<string>();
  for (const block of text.blocks) for (const v of block.versions) normIds.add(v.normId);
  const [acts, pending] = await Promise.all([
    ingestedActs(database, organizationId, [...normIds]),
    database.db
      .select()
      .from(lawAnnouncements)
      .where(and(eq(lawAnnouncements.lawId, lawId), isNull(lawAnnouncements.consolidatedAt))),
  ]);
  const announcementActs = await ingestedActs(
    database,
    organizationId,
    pending.map((a) => a.actId),
  );
  const renumbered = ((text.law.metadata as { renumbered?: Record<string, { from: string }> }).renumbered ??
    {}) as Record<string, { from: string }>;
  const blocks: BlockView[] = [];
  for (const block of [...text.blocks].sort((a, b) => a.position - b.position)) {
    const sorted = versionsOf(block);
    const current = versionAt(block, date);
    const heading = block.kind === "encabezado";
    const views = sorted.map((v) => versionView(v, date, today, current, acts));
    blocks.push({
      blockId: block.blockId,
      anchor: anchorOf(block.blockId),
      kind: block.kind,
      title: block.title || block.blockId,
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
    blocks,
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
  };
}
