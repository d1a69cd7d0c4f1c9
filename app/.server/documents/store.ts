/**
 * Stores parsed documents: idempotent by (source, source_id); a changed payload (different
 * content hash) updates the document and records a new version; provenance per payload;
 * relations linked both ways when the target is (or later becomes) known. Safe with several
 * instances: inserts use ON CONFLICT and updates compare the hash in the WHERE clause.
 */
import { createHash } from "node:crypto";
import { and, eq, isNull, ne, type SQL, sql } from "drizzle-orm";
import { recordLabels } from "../classify/history.ts";
import type { Database } from "../db/client.ts";
import { documentProvenance, documentRelations, documents, documentVersions } from "../db/schema/documents.ts";
import type { Classification, SourceDocument } from "./types.ts";

export type Classify = (doc: SourceDocument) => Classification | Promise<Classification>;

export interface StoreOptions {
  classify?: Classify | undefined;
  sample?: boolean;
  /** The source_feeds row that brought a feed entry: part of its key (decision 0080). */
  feedId?: string | undefined;
}

export interface StoreResult {
  id: string;
  isNew: boolean;
  /** True when a new version was recorded (new document or changed payload). */
  changed: boolean;
  version: number;
}

const BODY_LIMIT = 300_000;

/** The hash of what the source says (provenance excluded: refetching the same bytes is no change). */
export function contentHash(doc: SourceDocument): string {
  const { provenance: _provenance, ...content } = doc;
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}

export function bodyText(doc: SourceDocument): string {
  let out = "";
  for (const p of doc.paragraphs) {
    if (out.length > BODY_LIMIT) break;
    out += `${p.text}\n`;
  }
  return out.slice(0, BODY_LIMIT);
}

function targetSourceOf(targetSourceId: string): string {
  return /^BOE-/.test(targetSourceId) ? "boe" : /^[0-9CE][0-9]{4}[A-Z]/.test(targetSourceId) ? "eurlex" : "feed";
}

export async function storeDocument(
  database: Database,
  doc: SourceDocument,
  options: StoreOptions = {},
): Promise<StoreResult> {
  const { db } = database;
  const hash = contentHash(doc);
  const classification = options.classify ? await options.classify(doc) : undefined;
  const fetchedAt = new Date(doc.provenance.at(-1)?.fetchedAt ?? Date.now());
  const columns = {
    title: doc.title,
    language: doc.language,
    titles: doc.titles,
    publishedOn: doc.publishedOn,
    rank: doc.rank?.label ?? null,
    rankCode: doc.rank?.code ?? null,
    department: doc.department?.label ?? null,
    departmentCode: doc.department?.code ?? null,
    officialUrl: doc.officialUrl,
    effectiveDates: doc.effectiveDates,
    section: doc.section ?? null,
    epigraph: doc.epigraph ?? null,
    subjects: doc.subjects,
    alerts: doc.alerts,
    eurovoc: doc.eurovoc,
    paragraphs: doc.paragraphs,
    record: doc,
    bodyText: bodyText(doc),
    contentHash: hash,
    ...(classification
      ? {
          kind: classification.kind,
          jurisdiction: classification.jurisdiction,
          areas: classification.areas,
          relevance: classification.relevance,
          classification,
          classifierVersion: classification.classifierVersion,
        }
      : {}),
  };

  const feedId = doc.source === "feed" ? (options.feedId ?? null) : null;
  // The document's key: (source, source id) and, for feed entries, the feed that brought them, so
  // that another organisation's feed publishing the same guid stores its own document.
  const sameKey: SQL = and(
    eq(documents.source, doc.source),
    eq(documents.sourceId, doc.sourceId),
    feedId === null ? isNull(documents.feedId) : eq(documents.feedId, feedId),
  ) as SQL;
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(documents)
      .values({
        source: doc.source,
        sourceId: doc.sourceId,
        feedId,
        sample: options.sample ?? false,
        pipelinePending: "new",
        ...columns,
      })
      .onConflictDoNothing({ target: [documents.source, documents.sourceId, documents.feedId] })
      .returning({ id: documents.id });
    let id: string;
    let version = 1;
    let isNew = false;
    if (inserted[0]) {
      id = inserted[0].id;
      isNew = true;
    } else {
      const updated = await tx
        .update(documents)
        .set({
          ...columns,
          version: sql`${documents.version} + 1`,
          updatedAt: new Date(),
          // A new document whose pipeline never ran stays "new".
          pipelinePending: sql`coalesce(${documents.pipelinePending}, 'changed')`,
        })
        .where(and(sameKey, ne(documents.contentHash, hash)))
        .returning({ id: documents.id, version: documents.version });
      if (!updated[0]) {
        const [existing] = await tx
          .select({ id: documents.id, version: documents.version })
          .from(documents)
          .where(sameKey);
        return { id: existing?.id ?? "", isNew: false, changed: false, version: existing?.version ?? 1 };
      }
      id = updated[0].id;
      version = updated[0].version;
      await tx.delete(documentRelations).where(eq(documentRelations.documentId, id));
    }
    await tx
      .insert(documentVersions)
      .values({ documentId: id, version, contentHash: hash, record: doc, fetchedAt })
      .onConflictDoNothing();
    if (doc.provenance.length > 0) {
      await tx.insert(documentProvenance).values(
        doc.provenance.map((p) => ({
          documentId: id,
          version,
          url: p.url,
          fetchedAt: new Date(p.fetchedAt),
          sha256: p.sha256,
          parser: p.parser,
        })),
      );
    }
    // Relations out of this document, linked to targets already stored.
    const seen = new Set<string>();
    const rows = doc.relations
      .filter((r) => {
        const key = `${r.type}|${r.targetSourceId}|${r.direction}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .map((r) => ({
        documentId: id,
        type: r.type,
        code: r.code ?? null,
        direction: r.direction,
        targetSource: targetSourceOf(r.targetSourceId),
        targetSourceId: r.targetSourceId,
        label: r.label,
      }));
    for (let i = 0; i < rows.length; i += 200) {
      await tx
        .insert(documentRelations)
        .values(rows.slice(i, i + 200))
        .onConflictDoNothing();
    }
    if (rows.length > 0) {
      await tx.execute(sql`update document_relations r set target_document_id = d.id
        from documents d where r.document_id = ${id} and d.source = r.target_source and d.source_id = r.target_source_id
        and d.feed_id is null`);
    }
    // Relations from earlier documents that named this one: link them now (both ways). Relations
    // name public norms: a feed entry (one organisation's) is never linked as a target.
    if (feedId === null)
      await tx
        .update(documentRelations)
        .set({ targetDocumentId: id })
        .where(
          and(
            eq(documentRelations.targetSource, doc.source),
            eq(documentRelations.targetSourceId, doc.sourceId),
            isNull(documentRelations.targetDocumentId),
          ),
        );
    if (classification) {
      await recordLabels(tx, id, isNew ? "ingested" : "changed", {
        areas: classification.areas,
        jurisdiction: classification.jurisdiction,
        kind: classification.kind,
        relevance: classification.relevance,
        classifierVersion: classification.classifierVersion,
      });
    }
    return { id, isNew, changed: true, version };
  });
}
