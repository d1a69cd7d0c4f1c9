/**
 * The BOE consolidated-legislation source: keeps every followed law (laws rows of source "boe"
 * with at least one follow, or asked for by `only`) up to date, block by block.
 *
 * Per poll:
 * 1. The change list (`?from=&to=&offset=&limit=`, since the oldest check of a followed law) says
 *    which laws the BOE republished; laws not in it are not asked anything. When it answers 404
 *    (or fails), every followed law is checked by itself (step 2).
 * 2. A law never fetched: the whole law in one request (every block with every version), or, when
 *    that answers 404, metadatos + index + each block. A law fetched before: its metadatos; an
 *    unchanged fecha_actualizacion ends there. Otherwise its index, and only the blocks whose date
 *    moved (or that are new) are fetched, each with all its versions.
 * 3. fecha_actualizacion moved but no index date did (the BOE republishes after corrections in
 *    place, with the same dates): one request for the whole law and every version's text compared
 *    (hash), instead of one request per block (decision 0110). Corrections are versions updated in
 *    place, reported like new versions.
 * Every request goes through the shared polite client (pacing, backoff on 503). Provenance (URL,
 * fetch time, sha256 of the answer) is stored per block version. Each block is written in its own
 * transaction, its new versions marked unreported there (not on a law's first fetch): the change
 * they make is recorded afterwards from the marks (alerting.ts, recordPendingChange), so a process
 * killed between the two leaves them for the next poll or start (decision 0162).
 */
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { alertProfiles, lawBlocks, laws } from "../../db/schema.ts";
import {
  type BlockWriteResult,
  markChecked,
  markMissing,
  updatePositions,
  upsertLaw,
  writeBlock,
} from "../../law-texts/store.ts";
import { type FetchedPayload, SourceFetchError, type SourceHttp } from "../http.ts";
import {
  type ParsedBlock,
  type ParsedMetadata,
  parseBlock,
  parseChangeList,
  parseIndex,
  parseMetadatos,
  parseWholeLaw,
} from "./parse.ts";

export const CONSOLIDATED_PATH = "/datosabiertos/api/legislacion-consolidada";

export interface PollLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ConsolidatedDeps {
  database: Database;
  /** The shared polite client (source "boe"). */
  http: SourceHttp;
  /** BOE_API_URL. */
  baseUrl: string;
  log: PollLog;
  /** The clock (tests running the replay in the past pass its day). */
  now?: () => Date;
}

export interface LawPollResult {
  lawId: string;
  /** first: the law's first fetch (no change reported); changed: versions added or corrected. */
  status: "first" | "unchanged" | "changed" | "missing" | "failed";
  blocksFetched: number;
  writes: BlockWriteResult[];
  error?: string;
}

export interface PollResult {
  changeList: "used" | "unavailable" | "not-needed";
  laws: LawPollResult[];
}

const ymd = (date: Date) => date.toISOString().slice(0, 10).replaceAll("-", "");

function lawUrl(deps: ConsolidatedDeps, lawId: string, rest = ""): string {
  return `${deps.baseUrl.replace(/\/$/, "")}${CONSOLIDATED_PATH}/id/${encodeURIComponent(lawId)}${rest}`;
}

async function get(deps: ConsolidatedDeps, url: string, accept = "application/xml"): Promise<FetchedPayload> {
  const payload = await deps.http.request(url, { headers: { accept } });
  return payload;
}

function notFound(payload: FetchedPayload): boolean {
  return payload.status === 404;
}

/** Followed BOE laws (a follow exists), with when each was last checked. */
async function followedLaws(
  database: Database,
): Promise<Array<{ id: string; checkedAt: Date | null; updatedAt: Date | null }>> {
  const followed = database.db
    .selectDistinct({ lawId: alertProfiles.lawId })
    .from(alertProfiles)
    .where(isNotNull(alertProfiles.lawId));
  return database.db
    .select({ id: laws.id, checkedAt: laws.checkedAt, updatedAt: laws.updatedAt })
    .from(laws)
    .where(and(eq(laws.source, "boe"), inArray(laws.id, followed)));
}

/** Laws the change list says moved since `since`; undefined when the list is unavailable. */
async function changedLaws(
  deps: ConsolidatedDeps,
  since: Date,
  until: Date,
): Promise<Map<string, string | null> | undefined> {
  const out = new Map<string, string | null>();
  const limit = 100;
  for (let offset = 0; offset < 10_000; offset += limit) {
    const url = `${deps.baseUrl.replace(/\/$/, "")}${CONSOLIDATED_PATH}?from=${ymd(since)}&to=${ymd(until)}&offset=${offset}&limit=${limit}`;
    let payload: FetchedPayload;
    try {
      payload = await get(deps, url);
    } catch (error) {
      deps.log.warn(
        { source: "boe-consolidated", url, err: (error as Error).message },
        "change list failed; checking each law",
      );
      return undefined;
    }
    if (notFound(payload)) return undefined;
    const json = /^\s*[{[\ufeff]/.test(payload.body);
    const items = parseChangeList(payload.body, json ? "json" : "xml");
    for (const item of items) out.set(item.id, item.updatedAt);
    if (items.length < limit) break;
  }
  return out;
}

function lawFromMetadata(meta: ParsedMetadata) {
  return {
    id: meta.id,
    source: "boe" as const,
    title: meta.title || meta.id,
    eli: meta.eli,
    metadata: meta.fields,
    updatedAt: meta.updatedAt,
  };
}

async function storeBlock(
  deps: ConsolidatedDeps,
  lawId: string,
  block: ParsedBlock,
  position: number,
  payload: FetchedPayload,
  report: boolean,
): Promise<BlockWriteResult> {
  const latestDate = block.versions.reduce((max, v) => (v.publishedOn > max ? v.publishedOn : max), "0000-00-00");
  return writeBlock(deps.database, lawId, {
    blockId: block.blockId,
    kind: block.kind,
    title: block.title,
    position,
    latestDate,
    expiresOn: block.expiresOn,
    versions: block.versions,
    provenance: { url: payload.url, fetchedAt: payload.fetchedAt, sha256: payload.sha256 },
    report,
  });
}

/**
 * The whole law in one request: every block written (first fetch, or the correction check; `report`:
 * what changes is marked to be reported, not on a first fetch).
 */
async function fetchWhole(
  deps: ConsolidatedDeps,
  lawId: string,
  report: boolean,
): Promise<{ writes: BlockWriteResult[]; meta: ParsedMetadata } | undefined> {
  const payload = await get(deps, lawUrl(deps, lawId));
  if (notFound(payload)) return undefined;
  const { metadata, blocks } = parseWholeLaw(payload.body);
  await upsertLaw(deps.database, lawFromMetadata(metadata));
  const writes: BlockWriteResult[] = [];
  for (const [position, block] of blocks.entries())
    writes.push(await storeBlock(deps, lawId, block, position, payload, report));
  return { writes, meta: metadata };
}

async function storedDates(database: Database, lawId: string): Promise<Map<string, string>> {
  const rows = await database.db
    .select({ blockId: lawBlocks.blockId, latestDate: lawBlocks.latestDate })
    .from(lawBlocks)
    .where(eq(lawBlocks.lawId, lawId));
  return new Map(rows.map((r) => [r.blockId, r.latestDate]));
}

/** One law: see the module's comment. */
export async function pollLaw(deps: ConsolidatedDeps, lawId: string): Promise<LawPollResult> {
  const result: LawPollResult = { lawId, status: "unchanged", blocksFetched: 0, writes: [] };
  const known = await storedDates(deps.database, lawId);
  if (known.size === 0) {
    const whole = await fetchWhole(deps, lawId, false);
    if (whole) {
      result.status = "first";
      result.writes = whole.writes;
      await markChecked(deps.database, lawId, undefined, deps.now?.());
      return result;
    }
  }
  const metaPayload = await get(deps, lawUrl(deps, lawId, "/metadatos"));
  if (notFound(metaPayload)) {
    result.status = "missing";
    // Never fetched and unknown to the BOE: follows of this id are refused from now on.
    if (known.size === 0) await markMissing(deps.database, lawId, deps.now?.());
    return result;
  }
  const meta = parseMetadatos(metaPayload.body);
  const [row] = await deps.database.db.select({ updatedAt: laws.updatedAt }).from(laws).where(eq(laws.id, lawId));
  const previousUpdate = row?.updatedAt ? row.updatedAt.toISOString().replace(/\.\d{3}Z$/, "Z") : null;
  if (known.size > 0 && previousUpdate !== null && meta.updatedAt === previousUpdate) {
    await markChecked(deps.database, lawId, undefined, deps.now?.());
    return result;
  }
  const indexPayload = await get(deps, lawUrl(deps, lawId, "/texto/indice"));
  if (notFound(indexPayload)) {
    result.status = "missing";
    return result;
  }
  const index = parseIndex(indexPayload.body);
  const moved = index
    .map((entry, position) => ({ ...entry, position }))
    .filter((entry) => known.get(entry.blockId) !== entry.date);
  for (const entry of moved) {
    const payload = await get(deps, lawUrl(deps, lawId, `/texto/bloque/${encodeURIComponent(entry.blockId)}`));
    result.blocksFetched++;
    if (notFound(payload)) {
      deps.log.warn(
        { source: "boe-consolidated", lawId, blockId: entry.blockId, url: payload.url },
        "indexed block answers 404",
      );
      continue;
    }
    // Marked to be reported unless this is the law's first fetch (block by block after a 404 on the whole law).
    result.writes.push(
      await storeBlock(deps, lawId, parseBlock(payload.body), entry.position, payload, known.size > 0),
    );
  }
  await updatePositions(
    deps.database,
    lawId,
    index.map((entry, position) => ({ blockId: entry.blockId, title: entry.title, position })),
  );
  if (moved.length === 0 && known.size > 0) {
    // Republished with the same dates: the texts may have been corrected in place.
    const whole = await fetchWhole(deps, lawId, true);
    if (whole) result.writes = whole.writes;
  }
  await upsertLaw(deps.database, lawFromMetadata(meta));
  await markChecked(deps.database, lawId, undefined, deps.now?.());
  if (known.size === 0) result.status = "first";
  else if (result.writes.some((w) => w.added.length > 0 || w.corrected.length > 0)) result.status = "changed";
  return result;
}

/** Every followed BOE law (or `only`), using the change list when it answers. */
export async function pollConsolidated(deps: ConsolidatedDeps, options: { only?: string[] } = {}): Promise<PollResult> {
  const now = deps.now?.() ?? new Date();
  const followed = options.only
    ? await deps.database.db
        .select({ id: laws.id, checkedAt: laws.checkedAt, updatedAt: laws.updatedAt })
        .from(laws)
        .where(inArray(laws.id, options.only))
    : await followedLaws(deps.database);
  const result: PollResult = { changeList: "not-needed", laws: [] };
  if (followed.length === 0) return result;
  let toCheck = followed;
  const checked = followed.filter((law) => law.checkedAt !== null);
  if (checked.length > 0) {
    const since = new Date(Math.min(...checked.map((law) => (law.checkedAt as Date).getTime())) - 86_400_000);
    const moved = await changedLaws(deps, since, now);
    if (moved) {
      result.changeList = "used";
      toCheck = followed.filter((law) => {
        if (law.checkedAt === null) return true;
        if (!moved.has(law.id)) return false;
        const stamp = moved.get(law.id);
        const previous = law.updatedAt ? law.updatedAt.toISOString().replace(/\.\d{3}Z$/, "Z") : null;
        return stamp === null || stamp !== previous;
      });
    } else result.changeList = "unavailable";
  }
  for (const law of toCheck) {
    try {
      result.laws.push(await pollLaw(deps, law.id));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.log.warn(
        {
          source: "boe-consolidated",
          lawId: law.id,
          err: message,
          url: error instanceof SourceFetchError ? error.url : undefined,
        },
        "law poll failed",
      );
      result.laws.push({ lawId: law.id, status: "failed", blocksFetched: 0, writes: [], error: message });
    }
  }
  return result;
}
