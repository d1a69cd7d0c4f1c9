/**
 * The comparison of two versions of a law's block (/app/laws/:id/compare and
 * GET /api/v1/laws/{id}/compare): `from` and `to` name a version by its amending norm
 * (BOE-A-2019-15790, 32019R2115) or by a date (the version in force that day). Without them:
 * the latest version against the one before it; with only `to`: that version against the one before.
 */

import { isCalendarDate } from "../../lib/calendar-date.ts";
import type { Database } from "../db/client.ts";
import { compareWordings, paragraphsOfVersion, type WordDiff } from "../law-texts/diff.ts";
import { type BlockVersion, type Law, versionAt, versionsOf } from "../law-texts/model.ts";
import { loadBlocks, loadLaw, loadVersions } from "../law-texts/store.ts";
import { officialActUrl } from "./page.ts";

export interface VersionRef {
  normId: string;
  publishedOn: string;
  inForceOn: string | null;
  href: string;
}

export interface CompareView {
  law: Pick<Law, "id" | "source" | "title">;
  block: { blockId: string; title: string };
  /** The blocks that have at least two versions (the block chooser). */
  comparable: Array<{ blockId: string; title: string }>;
  versions: VersionRef[];
  from: VersionRef;
  to: VersionRef;
  diff: WordDiff;
}

export type CompareProblem = "law" | "block" | "version" | "single";

export interface CompareQuery {
  block?: string | null;
  from?: string | null;
  to?: string | null;
}

/** A version by its norm, or the one in force on a date (a repealed block's last wording stays comparable). */
function pick(sorted: BlockVersion[], wanted: string): BlockVersion | undefined {
  if (isCalendarDate(wanted)) return versionAt({ versions: sorted, expiresOn: null }, wanted);
  return sorted.find((v) => v.normId === wanted);
}

const ref = (v: BlockVersion): VersionRef => ({
  normId: v.normId,
  publishedOn: v.publishedOn,
  inForceOn: v.inForceOn,
  href: officialActUrl(v.normId),
});

export async function compareVersions(
  database: Database,
  lawId: string,
  query: CompareQuery,
): Promise<{ view: CompareView } | { problem: CompareProblem }> {
  const law = await loadLaw(database, lawId);
  if (!law) return { problem: "law" };
  const [blocks, versions] = await Promise.all([loadBlocks(database, lawId), loadVersions(database, lawId)]);
  const byBlock = new Map<string, BlockVersion[]>();
  for (const v of versions) {
    const list = byBlock.get(v.blockId) ?? [];
    list.push(v);
    byBlock.set(v.blockId, list);
  }
  const comparable = blocks
    .filter((b) => (byBlock.get(b.blockId)?.length ?? 0) >= 2)
    .map((b) => ({ blockId: b.blockId, title: b.title || b.blockId }));
  const blockId = query.block?.trim() || comparable[0]?.blockId;
  const block = blocks.find((b) => b.blockId === blockId);
  if (!block) return { problem: "block" };
  const sorted = versionsOf({ versions: byBlock.get(block.blockId) ?? [] });
  if (sorted.length < 2) return { problem: "single" };
  const toWanted = query.to?.trim();
  const to = toWanted ? pick(sorted, toWanted) : sorted[sorted.length - 1];
  if (!to) return { problem: "version" };
  const fromWanted = query.from?.trim();
  const before = sorted[sorted.indexOf(to) - 1];
  const from = fromWanted ? pick(sorted, fromWanted) : (before ?? sorted[0]);
  if (!from) return { problem: "version" };
  return {
    view: {
      law: { id: law.id, source: law.source, title: law.title },
      block: { blockId: block.blockId, title: block.title || block.blockId },
      comparable,
      versions: sorted.map(ref),
      from: ref(from),
      to: ref(to),
      diff: compareWordings(paragraphsOfVersion(from), paragraphsOfVersion(to)),
    },
  };
}
