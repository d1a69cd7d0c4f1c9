/**
 * Keeps a followed EU act's consolidated versions in the law tables (source 'eu'): one SPARQL
 * query lists the versions (the act's CELEX and Cellar's consolidation relation), and only the
 * versions not yet read are fetched (`{CELLAR_URL}/resource/celex/0{year}{type}{number}-{date}`,
 * XHTML), parsed and applied in date order. A poll with no new version fetches no text.
 */

import { and, asc, eq, sql } from "drizzle-orm";
import { isCalendarDate } from "../../../lib/calendar-date.ts";
import type { Database } from "../../db/client.ts";
import { lawBlocks, lawBlockVersions, laws } from "../../db/schema.ts";
import type { BlockWriteResult } from "../../law-texts/store.ts";
import { openAnchoredReviews } from "../../triage/law-anchors.ts";
import { parseAt } from "../errors.ts";
import { SourceFetchError, type SourceHttp } from "../http.ts";
import { isObj } from "../xml.ts";
import { applyEuVersion, type EuStoredBlock } from "./compare.ts";
import { EU_CONSOLIDATED_PARSER, parseEuConsolidated, splitConsolidatedCelex } from "./parse.ts";

export const EU_VERSIONS_PARSER = "cellar-consolidated-versions@1";

export interface EuUrls {
  cellarSparqlUrl: string;
  cellarUrl: string;
}

export interface EuVersionRef {
  celex: string;
  date: string;
}

/** The SPARQL query for an act's consolidated versions. */
export function consolidatedVersionsQuery(actCelex: string): string {
  return `PREFIX cdm: <http://publications.europa.eu/ontology/cdm#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
SELECT DISTINCT ?celex ?date WHERE {
  ?act cdm:resource_legal_id_celex "${actCelex}"^^xsd:string .
  ?consolidated cdm:act_consolidated_consolidates_resource_legal ?act ;
                cdm:resource_legal_id_celex ?celex ;
                cdm:act_consolidated_date ?date .
} ORDER BY ?date`;
}

/** Parses the SPARQL answer: each version's consolidated CELEX and date, oldest first. */
export function parseVersionList(json: string): EuVersionRef[] {
  const parsed = JSON.parse(json) as unknown;
  const bindings = isObj(parsed) && isObj(parsed.results) ? parsed.results.bindings : undefined;
  if (!Array.isArray(bindings)) throw new Error("no SPARQL results");
  const out = new Map<string, EuVersionRef>();
  for (const binding of bindings) {
    if (!isObj(binding)) continue;
    const celex = isObj(binding.celex) ? String(binding.celex.value ?? "") : "";
    const split = splitConsolidatedCelex(celex);
    if (!split) continue;
    const date = isObj(binding.date) ? String(binding.date.value ?? "").slice(0, 10) : split.date;
    out.set(celex, { celex, date: isCalendarDate(date) ? date : split.date });
  }
  return [...out.values()].sort((a, b) => a.date.localeCompare(b.date));
}

export async function listEuVersions(http: SourceHttp, urls: EuUrls, actCelex: string): Promise<EuVersionRef[]> {
  const payload = await http.request(urls.cellarSparqlUrl, {
    method: "POST",
    headers: { "content-type": "application/sparql-query", accept: "application/sparql-results+json" },
    body: consolidatedVersionsQuery(actCelex),
  });
  if (payload.status === 404) throw new SourceFetchError(payload.url, "HTTP 404", 404);
  return parseAt(urls.cellarSparqlUrl, () => parseVersionList(payload.body));
}

interface EuLawMetadata {
  /** Consolidated CELEX numbers already applied. */
  euVersions?: string[];
  /** The latest applied version's modifiers (CELEX). */
  euModifiers?: string[];
  /** Articles renumbered: new block id → { from, date }. */
  renumbered?: Record<string, { from: string; date: string }>;
}

export interface EuSyncResult {
  lawId: string;
  /** Versions fetched and applied in this run (consolidated CELEX). */
  applied: string[];
  /** Block ids with a new wording (or gone) in this run. */
  changed: string[];
  /** True when the act had no version stored before this run (its first read alerts nobody). */
  first: boolean;
  /** The new wordings per block, in the shape law changes are recorded from (law-texts/changes.ts). */
  writes: BlockWriteResult[];
}

/**
 * Brings an act up to date: lists its versions and applies those not yet read. Creates the law
 * row on the first run (title from the text).
 */
export async function syncEuLaw(
  database: Database,
  http: SourceHttp,
  urls: EuUrls,
  actCelex: string,
): Promise<EuSyncResult> {
  const { db } = database;
  const versions = await listEuVersions(http, urls, actCelex);
  const [row] = await db.select().from(laws).where(eq(laws.id, actCelex));
  const metadata = (row?.metadata ?? {}) as EuLawMetadata;
  const known = new Set(metadata.euVersions ?? []);
  const fresh = versions.filter((v) => !known.has(v.celex));
  const result: EuSyncResult = { lawId: actCelex, applied: [], changed: [], first: known.size === 0, writes: [] };
  if (fresh.length === 0) {
    await db.update(laws).set({ checkedAt: new Date() }).where(eq(laws.id, actCelex));
    return result;
  }
  let modifiers = metadata.euModifiers ?? [];
  const renumbered = { ...(metadata.renumbered ?? {}) };
  let stored = row ? await storedBlocks(database, actCelex) : [];
  for (const version of fresh) {
    const url = `${urls.cellarUrl}/resource/celex/${encodeURIComponent(version.celex)}`;
    const payload = await http.request(url, { headers: { accept: "application/xhtml+xml", "accept-language": "eng" } });
    if (payload.status === 404) throw new SourceFetchError(url, "HTTP 404", 404);
    const text = parseAt(url, () => parseEuConsolidated(payload.body));
    const applied = applyEuVersion(actCelex, stored, modifiers, {
      celex: version.celex,
      date: version.date,
      text,
      provenance: { url, fetchedAt: new Date(payload.fetchedAt), sha256: payload.sha256 },
    });
    for (const r of applied.renumbered) renumbered[r.to] = { from: r.from, date: version.date };
    known.add(version.celex);
    const nextMetadata: EuLawMetadata = {
      ...metadata,
      euVersions: [...known],
      euModifiers: applied.modifiers,
      renumbered,
    };
    await db.transaction(async (tx) => {
      await tx
        .insert(laws)
        .values({
          id: actCelex,
          source: "eu",
          title: text.title || actCelex,
          eli: null,
          metadata: nextMetadata,
          updatedAt: new Date(`${version.date}T00:00:00Z`),
          checkedAt: new Date(),
        })
        .onConflictDoUpdate({
          target: laws.id,
          set: {
            title: text.title || actCelex,
            metadata: nextMetadata,
            updatedAt: new Date(`${version.date}T00:00:00Z`),
            checkedAt: new Date(),
          },
        });
      for (const block of applied.blocks) {
        await tx
          .insert(lawBlocks)
          .values({
            lawId: actCelex,
            blockId: block.blockId,
            kind: block.kind,
            title: block.title,
            position: block.position,
            latestDate: block.latestDate,
            expiresOn: block.expiresOn,
          })
          .onConflictDoUpdate({
            target: [lawBlocks.lawId, lawBlocks.blockId],
            set: {
              kind: block.kind,
              title: block.title,
              position: block.position,
              latestDate: block.latestDate,
              expiresOn: block.expiresOn,
            },
          });
      }
      if (applied.versions.length > 0) {
        await tx
          .insert(lawBlockVersions)
          // Marked to be reported as a law change (not on the act's first read), decision 0162.
          .values(applied.versions.map((v) => ({ lawId: actCelex, ...v, unreported: result.first ? null : "added" })))
          .onConflictDoNothing();
        // Obligations anchored to a changed article go to review in this same transaction.
        await openAnchoredReviews(tx, actCelex, [...new Set(applied.versions.map((v) => v.blockId))]);
      }
    });
    modifiers = applied.modifiers;
    stored = applied.blocks;
    result.applied.push(version.celex);
    for (const v of applied.versions) {
      let write = result.writes.find((w) => w.blockId === v.blockId);
      if (!write) {
        write = { blockId: v.blockId, added: [], corrected: [] };
        result.writes.push(write);
      }
      write.added.push({
        normId: v.normId,
        publishedOn: v.publishedOn,
        inForceOn: v.inForceOn,
        html: v.html,
        text: v.text,
        hash: v.hash,
      });
    }
    for (const id of applied.changed) if (!result.changed.includes(id)) result.changed.push(id);
  }
  return result;
}

/** The stored blocks with their latest wording (the base the next version is compared with). */
async function storedBlocks(database: Database, lawId: string): Promise<EuStoredBlock[]> {
  const { db } = database;
  const blocks = await db.select().from(lawBlocks).where(eq(lawBlocks.lawId, lawId)).orderBy(asc(lawBlocks.position));
  const latest = await db
    .selectDistinctOn([lawBlockVersions.blockId], {
      blockId: lawBlockVersions.blockId,
      text: lawBlockVersions.text,
      hash: lawBlockVersions.hash,
    })
    .from(lawBlockVersions)
    .where(and(eq(lawBlockVersions.lawId, lawId)))
    .orderBy(lawBlockVersions.blockId, sql`${lawBlockVersions.publishedOn} desc`);
  const byId = new Map(latest.map((v) => [v.blockId, v]));
  return blocks.map((b) => ({
    blockId: b.blockId,
    kind: b.kind,
    title: b.title,
    position: b.position,
    latestDate: b.latestDate,
    expiresOn: b.expiresOn,
    text: byId.get(b.blockId)?.text ?? "",
    hash: byId.get(b.blockId)?.hash ?? "",
  }));
}

export { EU_CONSOLIDATED_PARSER };
