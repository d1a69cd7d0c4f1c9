/**
 * Ingestion: fetch, parse, classify (optional hook), store, notify (optional hook).
 * - ingestBoeDay(deps, "YYYY-MM-DD"): the summary (404 = no issue) then every item's document.
 * - ingestEurlex(deps): the OJ L feed, SPARQL metadata in batches of 100, XHTML text (es, else en).
 * - ingestFeed(deps, feedId): an admin's RSS/Atom feed.
 * Idempotent by source id; a changed payload makes a new version; one bad document never
 * stops the run (recorded in source_status with its URL, logged). Documents are claimed in
 * source_fetches while in flight so that instances running the same day split the work.
 */

import { eq, sql } from "drizzle-orm";
import { madridDate } from "../../lib/madrid-date.ts";
import type { Database } from "../db/client.ts";
import { sourceFeeds, sourceStatus } from "../db/schema/documents.ts";
import { httpUrlOrEmpty } from "../documents/reach.ts";
import { type Classify, storeDocument } from "../documents/store.ts";
import type { Provenance, SourceDocument } from "../documents/types.ts";
import { faultPoint } from "../kernel/fault.ts";
import type { BoeSummaryItem } from "./boe/summary.ts";
import { guessLanguage, type SourceClients, type SummaryVersion } from "./clients.ts";
import { errorUrl, failureKind, failureKindFromMessage, type SourceFailureKind, SourceParseError } from "./errors.ts";
import { toEurlexDocument } from "./eurlex/cellar.ts";
import { euRelationsOf } from "./eurlex/relations.ts";
import { SourceFetchError } from "./http.ts";

export interface IngestLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface IngestDeps {
  database: Database;
  clients: SourceClients;
  log: IngestLog;
  classify?: Classify | undefined;
  onDocument?: ((documentId: string, isNew: boolean) => void | Promise<void>) | undefined;
  sample?: boolean;
  /** Documents fetched at once (the HTTP client's rate gate still applies). Default 2. */
  concurrency?: number;
  /** Skip documents another run finished within this many seconds (jobs); 0 = always refetch. */
  freshSeconds?: number;
  /** Today's issue: its requests leave before the source's waiting backfill requests. */
  urgent?: boolean;
  /** Told when the run knows how many documents it has, and after each document (progress bars, logs). */
  onProgress?: ((progress: IngestProgress) => void) | undefined;
  /**
   * A BOE document that failed is handed over to be tried again on its own backoff (the jobs'
   * retry queue); true when it was. Absent (CLI, sample): the next run tries it again.
   */
  retryLater?: ((retry: BoeDocumentRetry) => Promise<boolean>) | undefined;
  /** Rewrites a fetched BOE document before it is stored (the sample's day replayed as today). */
  adjust?: ((doc: SourceDocument) => SourceDocument) | undefined;
}

/** What a BOE document's retry needs: its day, its summary entry and the summary's provenance. */
export interface BoeDocumentRetry {
  date: string;
  item: BoeSummaryItem;
  summary: Provenance;
}

/** Where a run is: documents listed by the source, handled so far (stored, skipped or failed). */
export interface IngestProgress {
  source: string;
  date?: string;
  listed: number;
  done: number;
  created: number;
  failed: number;
}

function reportProgress(deps: IngestDeps, result: IngestResult, done: number): void {
  deps.onProgress?.({
    source: result.source,
    ...(result.date ? { date: result.date } : {}),
    listed: result.listed,
    done,
    created: result.created,
    failed: result.failed.length,
  });
}

export interface IngestFailure {
  sourceId: string;
  url: string;
  error: string;
  /** Handed over to be tried again on its own backoff (deps.retryLater). */
  retrying?: boolean;
}

export interface IngestResult {
  source: string;
  /** For BOE: the date; null issue = no issue that day. */
  date?: string;
  noIssue?: boolean;
  /** For BOE with `seen`: the summary is still that version, nothing was fetched after it. */
  summaryUnchanged?: boolean;
  /** For BOE: the version of the summary ingested (for the next conditional check). */
  summaryVersion?: SummaryVersion;
  listed: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: IngestFailure[];
  duplicates: string[];
}

const newResult = (source: string): IngestResult => ({
  source,
  listed: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  skipped: 0,
  failed: [],
  duplicates: [],
});

const CLAIM_LEASE_SECONDS = 300;

/** Claims a fetch key; false when another instance holds it or finished it within freshSeconds. */
async function claim(database: Database, key: string, freshSeconds: number): Promise<boolean> {
  const rows = await database.rows<{ key: string }>(sql`
    insert into source_fetches (key, claimed_at, done_at) values (${key}, now(), null)
    on conflict (key) do update set claimed_at = now(), done_at = null
    where source_fetches.claimed_at < now() - make_interval(secs => ${CLAIM_LEASE_SECONDS})
       or (source_fetches.done_at is not null and source_fetches.done_at < now() - make_interval(secs => ${freshSeconds}))
    returning key`);
  return rows.length > 0;
}

async function release(database: Database, key: string, done: boolean): Promise<void> {
  if (done) await database.rows(sql`update source_fetches set done_at = now() where key = ${key}`);
  else await database.rows(sql`delete from source_fetches where key = ${key}`);
}

/**
 * Records a success (with the number of documents added and when its run started: errors
 * older than that start are past) or an error with its URL and kind.
 */
export async function recordStatus(
  database: Database,
  source: string,
  update:
    | { ok: true; added: number; runStartedAt?: Date }
    | { ok: false; error: string; url: string; kind?: SourceFailureKind },
): Promise<void> {
  const today = madridDate();
  const runStartedAt = update.ok ? (update.runStartedAt ?? new Date()) : undefined;
  const kind = update.ok ? undefined : (update.kind ?? failureKindFromMessage(update.error));
  await database.db
    .insert(sourceStatus)
    .values({
      source,
      ...(update.ok
        ? {
            lastSuccessAt: new Date(),
            lastSuccessRunStartedAt: runStartedAt,
            documentsDay: today,
            documentsToday: update.added,
          }
        : {
            lastError: update.error.slice(0, 1000),
            lastErrorUrl: update.url,
            lastErrorAt: new Date(),
            lastErrorKind: kind,
          }),
    })
    .onConflictDoUpdate({
      target: sourceStatus.source,
      set: update.ok
        ? {
            lastSuccessAt: new Date(),
            lastSuccessRunStartedAt: runStartedAt,
            documentsDay: today,
            documentsToday: sql`case when ${sourceStatus.documentsDay} = ${today} then ${sourceStatus.documentsToday} + ${update.added} else ${update.added} end`,
            updatedAt: new Date(),
          }
        : {
            lastError: update.error.slice(0, 1000),
            lastErrorUrl: update.url,
            lastErrorAt: new Date(),
            lastErrorKind: kind,
            updatedAt: new Date(),
          },
    });
}

/**
 * A run's status for the Sources page: a live run's only. Loading the bundled sample does not
 * reach the source, so it changes neither its last success, its errors nor its count of today.
 */
function noteStatus(deps: IngestDeps, source: string, update: Parameters<typeof recordStatus>[2]): Promise<void> {
  return deps.sample ? Promise.resolve() : recordStatus(deps.database, source, update);
}

function describe(error: unknown): string {
  if (error instanceof SourceParseError || error instanceof SourceFetchError) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

async function store(deps: IngestDeps, doc: SourceDocument, result: IngestResult, feedId?: string): Promise<void> {
  const stored = await storeDocument(deps.database, doc, {
    classify: deps.classify,
    sample: deps.sample ?? false,
    feedId,
  });
  if (stored.isNew) result.created++;
  else if (stored.changed) result.updated++;
  else result.unchanged++;
  // Stored and marked pipeline_pending in one transaction: a crash here leaves the mark, and the
  // next run (or start) hands the document over (decision 0145).
  faultPoint("document.stored");
  if (stored.changed && deps.onDocument)
    await handOver(deps.database, deps.onDocument, stored.id, stored.isNew, deps.log);
}

type OnDocument = NonNullable<IngestDeps["onDocument"]>;

/** Runs the hook (queues the document-stored event, or matches now) and clears the document's mark. */
async function handOver(
  database: Database,
  onDocument: OnDocument,
  documentId: string,
  isNew: boolean,
  log: IngestDeps["log"],
): Promise<boolean> {
  try {
    await onDocument(documentId, isNew);
  } catch (error) {
    log.error({ err: error, documentId }, "onDocument hook failed");
    return false;
  }
  faultPoint("document.handed-over");
  await database.rows(sql`update documents set pipeline_pending = null where id = ${documentId}`);
  return true;
}

/**
 * Documents stored by a process that stopped before handing them over (killed, or its hook failed):
 * handed over now, oldest first. Subscribers are idempotent (kernel/events.ts), so one handed over
 * twice (killed after the hook, before the mark was cleared) costs a repeated match, not a duplicate.
 */
export async function handOverPending(
  database: Database,
  onDocument: OnDocument,
  log: IngestDeps["log"],
  limit = 5000,
): Promise<number> {
  const pending = await database.rows<{ id: string; pipeline_pending: "new" | "changed" }>(
    sql`select id, pipeline_pending from documents where pipeline_pending is not null order by updated_at limit ${limit}`,
  );
  let handed = 0;
  for (const row of pending) {
    if (await handOver(database, onDocument, row.id, row.pipeline_pending === "new", log)) handed++;
  }
  if (handed > 0) log.info({ documents: handed }, "documents stored before a stop handed over to the pipeline");
  return handed;
}

/** Runs `work` over items with a small concurrency. */
async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(runners);
}

async function fail(
  deps: IngestDeps,
  source: string,
  result: IngestResult,
  sourceId: string,
  url: string,
  error: unknown,
) {
  const message = describe(error);
  result.failed.push({ sourceId, url, error: message });
  deps.log.warn({ source, sourceId, url, error: message }, "source document failed");
  await noteStatus(deps, source, {
    ok: false,
    error: `${sourceId}: ${message}`,
    url,
    kind: failureKind(error),
  });
}

/**
 * Ingests one BOE day (YYYY-MM-DD). Throws only when the summary itself cannot be fetched or
 * parsed (recorded first). With `seen` (the watch), a summary still at that version ends the
 * run at once: a 304 where the source honours conditional requests, the same bytes otherwise.
 */
export async function ingestBoeDay(
  deps: IngestDeps,
  date: string,
  options: { seen?: SummaryVersion | undefined } = {},
): Promise<IngestResult> {
  const result = newResult("boe");
  result.date = date;
  const runStartedAt = new Date();
  let summary: Awaited<ReturnType<SourceClients["boeSummary"]>>;
  try {
    const check = await deps.clients.boeSummaryIfChanged(date, options.seen, { urgent: deps.urgent === true });
    if (check.status === "unchanged") {
      result.summaryUnchanged = true;
      return result;
    }
    summary = check.status === "changed" ? check.summary : null;
    if (check.status === "changed") result.summaryVersion = check.version;
  } catch (error) {
    const url = errorUrl(error) ?? `summary ${date}`;
    await noteStatus(deps, "boe", {
      ok: false,
      error: `summary ${date}: ${describe(error)}`,
      url,
      kind: failureKind(error),
    });
    deps.log.error({ source: "boe", date, url, error: describe(error) }, "BOE summary failed");
    throw error;
  }
  if (!summary) {
    result.noIssue = true;
    await noteStatus(deps, "boe", { ok: true, added: 0, runStartedAt });
    reportProgress(deps, result, 0);
    deps.log.info({ source: "boe", date }, "no BOE issue that day");
    return result;
  }
  const { items, duplicates } = summary.value;
  result.listed = items.length;
  result.duplicates = duplicates;
  if (duplicates.length > 0) {
    deps.log.warn({ source: "boe", date, duplicates, url: summary.provenance.url }, "BOE summary lists items twice");
    await noteStatus(deps, "boe", {
      ok: false,
      error: `summary ${date} lists ${duplicates.join(", ")} more than once (kept once)`,
      url: summary.provenance.url,
      kind: "malformed",
    });
  }
  let handled = 0;
  reportProgress(deps, result, handled);
  await pool(items, deps.concurrency ?? 2, async (item: BoeSummaryItem) => {
    const key = `boe:doc:${item.sourceId}`;
    if (!(await claim(deps.database, key, deps.freshSeconds ?? 0))) {
      result.skipped++;
      reportProgress(deps, result, ++handled);
      return;
    }
    let done = false;
    try {
      const { doc } = await deps.clients.boeDocument(item, { urgent: deps.urgent === true });
      doc.provenance.unshift(summary.provenance);
      await store(deps, deps.adjust ? deps.adjust(doc) : doc, result);
      done = true;
    } catch (error) {
      const url = errorUrl(error) ?? item.urls.xml ?? item.sourceId;
      await fail(deps, "boe", result, item.sourceId, url, error);
      if (deps.retryLater) {
        const failure = result.failed.at(-1);
        const handed = await deps
          .retryLater({ date, item, summary: summary.provenance })
          .catch((retryError: unknown) => {
            deps.log.warn({ err: retryError, sourceId: item.sourceId }, "BOE document retry could not be queued");
            return false;
          });
        if (failure && handed) failure.retrying = true;
      }
    } finally {
      await release(deps.database, key, done);
      reportProgress(deps, result, ++handled);
    }
  });
  await noteStatus(deps, "boe", { ok: true, added: result.created, runStartedAt });
  deps.log.info({ source: "boe", date, ...summarize(result) }, "BOE day ingested");
  return result;
}

/**
 * One BOE document tried again (the jobs' retry queue): skipped when another run fetched it
 * meanwhile or holds it; a failure throws (the queue tries again later) unless `lastAttempt`,
 * when it is given up and recorded as the source's error with the reason, for the Sources page.
 */
export async function retryBoeDocument(
  deps: IngestDeps,
  retry: BoeDocumentRetry,
  attempt: { number: number; lastAttempt: boolean },
): Promise<"stored" | "skipped" | "given-up"> {
  const key = `boe:doc:${retry.item.sourceId}`;
  // Done by any run within the last day, or in flight elsewhere: nothing to retry here.
  if (!(await claim(deps.database, key, 86_400))) return "skipped";
  const result = newResult("boe");
  let done = false;
  try {
    const { doc } = await deps.clients.boeDocument(retry.item, { urgent: retry.date === madridDate() });
    doc.provenance.unshift(retry.summary);
    await store(deps, doc, result);
    done = true;
    deps.log.info({ source: "boe", sourceId: retry.item.sourceId, attempt: attempt.number }, "BOE document retried");
    return "stored";
  } catch (error) {
    if (!attempt.lastAttempt) throw error;
    const url = errorUrl(error) ?? retry.item.urls.xml ?? retry.item.sourceId;
    const message = `${GIVEN_UP} ${attempt.number} retries: ${describe(error)}`;
    deps.log.warn({ source: "boe", sourceId: retry.item.sourceId, url, error: message }, "BOE document given up");
    await noteStatus(deps, "boe", {
      ok: false,
      error: `${retry.item.sourceId}: ${message}`,
      url,
      kind: failureKind(error),
    });
    return "given-up";
  } finally {
    await release(deps.database, key, done);
  }
}

/** How a given-up document's error reads after its id (errors.ts givenUpDocument reads it for the Sources page). */
const GIVEN_UP = "given up after";

/** Ingests the acts of the EUR-Lex OJ L feed. Throws only when the feed itself fails (recorded first). */
export async function ingestEurlex(deps: IngestDeps): Promise<IngestResult> {
  const result = newResult("eurlex");
  const runStartedAt = new Date();
  let feed: Awaited<ReturnType<SourceClients["eurlexFeed"]>>;
  try {
    feed = await deps.clients.eurlexFeed();
  } catch (error) {
    const url = errorUrl(error) ?? "EUR-Lex feed";
    await noteStatus(deps, "eurlex", {
      ok: false,
      error: `feed: ${describe(error)}`,
      url,
      kind: failureKind(error),
    });
    throw error;
  }
  result.listed = feed.value.length;
  let handled = 0;
  reportProgress(deps, result, handled);
  const entries = feed.value.filter((e) => e.celex !== null);
  for (const e of feed.value.filter((x) => x.celex === null)) {
    await fail(
      deps,
      "eurlex",
      result,
      e.ojReference ?? e.link,
      e.link,
      new Error("OJ reference without CELEX: not resolved"),
    );
    reportProgress(deps, result, ++handled);
  }
  for (let i = 0; i < entries.length; i += 100) {
    const batch = entries.slice(i, i + 100);
    let metadata: Awaited<ReturnType<SourceClients["cellarMetadata"]>>;
    try {
      metadata = await deps.clients.cellarMetadata(batch.map((e) => e.celex as string));
    } catch (error) {
      for (const e of batch) {
        await fail(deps, "eurlex", result, e.celex as string, errorUrl(error) ?? "SPARQL", error);
        reportProgress(deps, result, ++handled);
      }
      continue;
    }
    // EuroVoc concepts and directory codes (decision 0118): without them an act is still stored,
    // classified on its title and text.
    let subjects: Awaited<ReturnType<SourceClients["cellarSubjects"]>> | undefined;
    try {
      subjects = await deps.clients.cellarSubjects(batch.map((e) => e.celex as string));
    } catch (error) {
      deps.log.warn(
        { source: "eurlex", url: errorUrl(error) ?? "SPARQL", error: describe(error), acts: batch.length },
        "EUR-Lex: no EuroVoc concepts or directory codes for these acts; new ones stored without, stored ones keep theirs",
      );
    }
    // What the acts amend, repeal or correct (issue 39): without it an act is stored without these
    // relations, and one already stored keeps those it has.
    let amendments: Awaited<ReturnType<SourceClients["cellarRelations"]>> | undefined;
    try {
      amendments = await deps.clients.cellarRelations(batch.map((e) => e.celex as string));
    } catch (error) {
      deps.log.warn(
        { source: "eurlex", url: errorUrl(error) ?? "SPARQL", error: describe(error), acts: batch.length },
        "EUR-Lex: no amended, repealed or corrected acts for these acts; new ones stored without, stored ones keep theirs",
      );
    }
    await pool(batch, deps.concurrency ?? 2, async (entry) => {
      const celex = entry.celex as string;
      const key = `eurlex:doc:${celex}`;
      if (!(await claim(deps.database, key, deps.freshSeconds ?? 0))) {
        result.skipped++;
        reportProgress(deps, result, ++handled);
        return;
      }
      let done = false;
      try {
        const facts = metadata.value.get(celex);
        if (!facts) throw new SourceParseError("cellar-sparql@1", `no metadata for ${celex}`);
        // Without this run's subjects, an act already stored keeps the ones it has: a failed
        // query must not make a new version (and new alerts) of an unchanged act.
        const about = subjects ? subjects.value.get(celex) : await storedSubjects(deps.database, celex);
        const meta = about ? { ...facts, eurovoc: about.eurovoc, directoryCodes: about.directoryCodes } : facts;
        const text = await deps.clients.cellarText(celex);
        const provenance = [
          feed.provenance,
          metadata.provenance,
          ...(subjects ? [subjects.provenance] : []),
          ...(text ? [text.provenance] : []),
        ];
        const doc = toEurlexDocument(meta, text?.paragraphs ?? [], provenance, {
          textLanguage: text?.language ?? "en",
          ...(entry.publishedOn ? { publishedOn: entry.publishedOn } : {}),
        });
        if (!doc.titles.en && !doc.titles.es) doc.titles.en = entry.title;
        doc.relations = amendments
          ? euRelationsOf(amendments.value.get(celex) ?? [])
          : await storedRelations(deps.database, celex);
        if (amendments) doc.provenance.push(amendments.provenance);
        await store(deps, doc, result);
        done = true;
      } catch (error) {
        await fail(deps, "eurlex", result, celex, errorUrl(error) ?? entry.link, error);
      } finally {
        await release(deps.database, key, done);
        reportProgress(deps, result, ++handled);
      }
    });
  }
  await noteStatus(deps, "eurlex", { ok: true, added: result.created, runStartedAt });
  deps.log.info({ source: "eurlex", ...summarize(result) }, "EUR-Lex feed ingested");
  return result;
}

/** The relations to earlier acts an EU act was stored with (none when it was not). */
async function storedRelations(database: Database, celex: string): Promise<SourceDocument["relations"]> {
  const [row] = await database.rows<{ relations: SourceDocument["relations"] | null }>(
    sql`select record->'relations' as relations from documents
      where source = 'eurlex' and source_id = ${celex} and feed_id is null`,
  );
  return Array.isArray(row?.relations) ? row.relations : [];
}

/** The EuroVoc concepts and directory codes an EU act was stored with, if it was. */
async function storedSubjects(
  database: Database,
  celex: string,
): Promise<Pick<SourceDocument, "eurovoc" | "directoryCodes"> | undefined> {
  const [row] = await database.rows<{
    eurovoc: SourceDocument["eurovoc"] | null;
    directory: SourceDocument["directoryCodes"] | null;
  }>(
    sql`select record->'eurovoc' as eurovoc, record->'directoryCodes' as directory from documents
      where source = 'eurlex' and source_id = ${celex} and feed_id is null`,
  );
  return row ? { eurovoc: row.eurovoc ?? [], directoryCodes: row.directory ?? [] } : undefined;
}

/** Ingests an admin's RSS/Atom feed (source_feeds.id). */
export async function ingestFeed(deps: IngestDeps, feedId: string): Promise<IngestResult> {
  const result = newResult(`feed:${feedId}`);
  const runStartedAt = new Date();
  const [feed] = await deps.database.db.select().from(sourceFeeds).where(eq(sourceFeeds.id, feedId));
  if (!feed) throw new Error(`feed ${feedId} not found`);
  let parsed: Awaited<ReturnType<SourceClients["feed"]>>;
  try {
    parsed = await deps.clients.feed(feed.url);
  } catch (error) {
    await noteStatus(deps, result.source, {
      ok: false,
      error: describe(error),
      url: feed.url,
      kind: failureKind(error),
    });
    throw error;
  }
  result.listed = parsed.value.length;
  for (const entry of parsed.value) {
    try {
      const language = guessLanguage(`${entry.title} ${entry.summary}`) ?? "es";
      // Only http(s) links are kept: a javascript: or data: link is dropped, the entry stays.
      const link = httpUrlOrEmpty(entry.link);
      const title = entry.title || link || entry.id.slice(0, 200);
      const doc: SourceDocument = {
        source: "feed",
        sourceId: entry.id.slice(0, 500),
        language,
        title,
        titles: { [language]: title },
        publishedOn: entry.publishedOn ?? madridDate(),
        effectiveDates: [],
        officialUrl: link,
        links: link ? { html: link } : {},
        subjects: [],
        alerts: [],
        eurovoc: [],
        directoryCodes: [],
        notes: [],
        relations: [],
        paragraphs: entry.summary ? [{ kind: "paragraph", text: entry.summary }] : [],
        provenance: [parsed.provenance],
        feedName: feed.name,
      };
      await store(deps, doc, result, feed.id);
    } catch (error) {
      await fail(deps, result.source, result, entry.id, entry.link, error);
    }
  }
  await noteStatus(deps, result.source, { ok: true, added: result.created, runStartedAt });
  return result;
}

function summarize(result: IngestResult) {
  return {
    listed: result.listed,
    created: result.created,
    updated: result.updated,
    unchanged: result.unchanged,
    skipped: result.skipped,
    failed: result.failed.length,
  };
}
