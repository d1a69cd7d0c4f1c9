/**
 * Each organisation's own topics (issue 12, layer 2): keyword rules an admin keeps on the Topics
 * page. They label documents for that organisation only: matches live in document_topics, keyed
 * by organisation, filled when a document is stored (matchDocumentTopics) and for the whole
 * collection when a topic changes (rematchOrganisation, a background job). Every change is audited.
 */
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { serverMessagesFor } from "../../i18n/server-messages.ts";
import { fillTemplate } from "../../lib/fill-template.ts";
import { areaIds } from "../../lib/taxonomy.ts";
import type { AuditEventInput } from "../audit/types.ts";
import type { Database, Db } from "../db/client.ts";
import { documents, documentTopics, organizationTopics } from "../db/schema.ts";
import { reachable, reachesDocument } from "../documents/reach.ts";
import { documentText } from "./document-text.ts";
import { matchTopics, type OrganisationTopic, stemDocument } from "./keywords.ts";

type Lang = "es" | "en";
export type AuditRecorder = (tx: Db, event: AuditEventInput) => Promise<unknown>;

export const maxKeywords = 30;

/** One per line (commas also separate); blanks and repeats dropped. */
export function parseKeywords(value: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of value.split(/[\n,;]+/)) {
    const keyword = raw.trim().replace(/\s+/g, " ");
    const key = keyword.toLowerCase();
    if (!keyword || seen.has(key)) continue;
    seen.add(key);
    out.push(keyword);
  }
  return out;
}

export function topicInputSchema(lang: Lang) {
  const messages = serverMessagesFor(lang).topics;
  const t = { ...messages, keywords: fillTemplate(messages.keywords, { max: String(maxKeywords) }) };
  return z.object({
    name: z.string({ error: t.name }).trim().min(1, t.name).max(80, t.name),
    keywords: z
      .string({ error: t.keywords })
      .transform(parseKeywords)
      .pipe(
        z
          .array(z.string().min(2, t.keywords).max(80, t.keywords), { error: t.keywords })
          .min(1, t.keywords)
          .max(maxKeywords, t.keywords),
      ),
    area: z
      .string()
      .optional()
      .transform((value) => (value ? value : undefined))
      .pipe(z.enum(areaIds, { error: t.area }).optional()),
  });
}

export type TopicInput = z.output<ReturnType<typeof topicInputSchema>>;

export interface TopicView {
  id: string;
  name: string;
  keywords: string[];
  area: string | null;
  documents: number;
  updatedAt: string;
}

export interface TopicActor {
  organizationId: string;
  userId: string;
  email: string;
  ip?: string;
  userAgent?: string;
}

function event(actor: TopicActor, action: string, id: string, detail?: Record<string, unknown>): AuditEventInput {
  return {
    organizationId: actor.organizationId,
    actor: { id: actor.userId, email: actor.email },
    action,
    object: { type: "topic", id },
    ip: actor.ip,
    userAgent: actor.userAgent,
    detail,
  };
}

export async function listTopics(db: Db, organizationId: string): Promise<TopicView[]> {
  const rows = await db
    .select()
    .from(organizationTopics)
    .where(eq(organizationTopics.organizationId, organizationId))
    .orderBy(asc(organizationTopics.name));
  if (rows.length === 0) return [];
  const counts = await db
    .select({ topicId: documentTopics.topicId, documentId: documentTopics.documentId })
    .from(documentTopics)
    .where(
      and(
        inArray(
          documentTopics.topicId,
          rows.map((row) => row.id),
        ),
        // Counted within reach only (a feed removed since, matches stored before the rule).
        sql`exists (select 1 from documents d where d.id = ${documentTopics.documentId} and ${reachable(organizationId)})`,
      ),
    );
  const byTopic = new Map<string, number>();
  for (const row of counts) byTopic.set(row.topicId, (byTopic.get(row.topicId) ?? 0) + 1);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    keywords: row.keywords,
    area: row.area,
    documents: byTopic.get(row.id) ?? 0,
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function createTopic(db: Db, record: AuditRecorder, actor: TopicActor, input: TopicInput) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(organizationTopics)
      .values({ organizationId: actor.organizationId, name: input.name, keywords: input.keywords, area: input.area })
      .returning({ id: organizationTopics.id });
    const id = row!.id;
    await record(tx, event(actor, "topic.created", id, { name: input.name, keywords: input.keywords.length }));
    return id;
  });
}

export async function updateTopic(
  db: Db,
  record: AuditRecorder,
  actor: TopicActor,
  id: string,
  input: TopicInput,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(organizationTopics)
      .set({ name: input.name, keywords: input.keywords, area: input.area ?? null, updatedAt: new Date() })
      .where(and(eq(organizationTopics.id, id), eq(organizationTopics.organizationId, actor.organizationId)))
      .returning({ id: organizationTopics.id });
    if (updated.length === 0) return false;
    await record(tx, event(actor, "topic.updated", id, { name: input.name, keywords: input.keywords.length }));
    return true;
  });
}

export async function deleteTopic(db: Db, record: AuditRecorder, actor: TopicActor, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(organizationTopics)
      .where(and(eq(organizationTopics.id, id), eq(organizationTopics.organizationId, actor.organizationId)))
      .returning({ name: organizationTopics.name });
    if (removed.length === 0) return false;
    await record(tx, event(actor, "topic.deleted", id, { name: removed[0]!.name }));
    return true;
  });
}

function asTopic(row: typeof organizationTopics.$inferSelect): OrganisationTopic {
  return {
    id: row.id,
    name: row.name,
    keywords: row.keywords,
    ...(row.area ? { area: row.area as OrganisationTopic["area"] } : {}),
  };
}

/** The topics of every organisation within whose reach the document is, against it (after ingestion). Returns matches stored. */
export async function matchDocumentTopics(database: Database, documentId: string): Promise<number> {
  const { db } = database;
  const topics = await db
    .select()
    .from(organizationTopics)
    .where(reachesDocument(sql`${organizationTopics.organizationId}`, documentId));
  if (topics.length === 0) return 0;
  const [doc] = await db.select({ record: documents.record }).from(documents).where(eq(documents.id, documentId));
  if (!doc) return 0;
  const docText = documentText(doc.record);
  const matches = matchTopics(topics.map(asTopic), docText, stemDocument(docText));
  const orgOf = new Map(topics.map((topic) => [topic.id, topic.organizationId]));
  await db.transaction(async (tx) => {
    await tx.delete(documentTopics).where(eq(documentTopics.documentId, documentId));
    if (matches.length > 0) {
      await tx.insert(documentTopics).values(
        matches.map((match) => ({
          organizationId: orgOf.get(match.id)!,
          topicId: match.id,
          documentId,
          reasons: match.explanations.map(({ es, en }) => ({ es, en })),
        })),
      );
    }
  });
  return matches.length;
}

/** One organisation's topics against every stored document within its reach, in batches (after its topics changed). */
export async function rematchOrganisation(
  database: Database,
  organizationId: string,
  options: { batchSize?: number } = {},
): Promise<{ documents: number; matches: number }> {
  const { db } = database;
  const topics = (
    await db.select().from(organizationTopics).where(eq(organizationTopics.organizationId, organizationId))
  ).map(asTopic);
  const batchSize = options.batchSize ?? 200;
  const result = { documents: 0, matches: 0 };
  let after: string | undefined;
  for (;;) {
    const batch = await db
      .select({ id: documents.id, record: documents.record })
      .from(documents)
      .where(and(reachable(organizationId, "documents"), after ? gt(documents.id, after) : undefined))
      .orderBy(asc(documents.id))
      .limit(batchSize);
    if (batch.length === 0) break;
    after = batch.at(-1)!.id;
    const rows = batch.flatMap((doc) => {
      if (topics.length === 0) return [];
      const docText = documentText(doc.record);
      return matchTopics(topics, docText, stemDocument(docText)).map((match) => ({
        organizationId,
        topicId: match.id,
        documentId: doc.id,
        reasons: match.explanations.map(({ es, en }) => ({ es, en })),
      }));
    });
    await db.transaction(async (tx) => {
      await tx.delete(documentTopics).where(
        and(
          eq(documentTopics.organizationId, organizationId),
          inArray(
            documentTopics.documentId,
            batch.map((doc) => doc.id),
          ),
        ),
      );
      if (rows.length > 0) await tx.insert(documentTopics).values(rows);
    });
    result.documents += batch.length;
    result.matches += rows.length;
  }
  return result;
}

export interface DocumentTopicView {
  id: string;
  name: string;
  area: string | null;
  reasons: { es: string; en: string }[];
}

/** The organisation's topics a document matched, with their reasons (the document page, the API). */
export async function topicsOfDocument(
  db: Db,
  organizationId: string,
  documentId: string,
): Promise<DocumentTopicView[]> {
  const rows = await db
    .select({
      id: organizationTopics.id,
      name: organizationTopics.name,
      area: organizationTopics.area,
      reasons: documentTopics.reasons,
    })
    .from(documentTopics)
    .innerJoin(organizationTopics, eq(organizationTopics.id, documentTopics.topicId))
    .where(and(eq(documentTopics.organizationId, organizationId), eq(documentTopics.documentId, documentId)))
    .orderBy(asc(organizationTopics.name));
  return rows;
}
