/**
 * The review of an obligation whose anchored article changed (issue 39, decision 0146): the
 * word-level comparison of the anchored wording with the new one (the law comparison's engine,
 * law-texts/diff.ts), and the reviewer's decision — still applies, changed (with the new text or a
 * note) or no longer applies. The decision re-anchors the obligation to the new version, and is
 * kept with its actor and time (obligation_reviews, obligation_history), audited
 * (`obligation.reviewed`) and sent as `obligation.updated`, in one transaction.
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import {
  type ChangeSet,
  obligationHistory,
  obligationReviews,
  obligations,
  type ReviewDecision,
  reviewDecisions,
} from "../db/schema/triage.ts";
import { compareWordings, paragraphsOf, type WordDiff } from "../law-texts/diff.ts";
import { type Lang, triageText } from "./messages.ts";
import { auditObligation, getObligation, type ObligationView } from "./obligations.ts";
import type { TriageActor } from "./store.ts";
import { queueTriageWebhookEvent } from "./webhook-events.ts";

export function reviewDecisionSchema(lang: Lang) {
  const t = triageText[lang];
  return z
    .object({
      decision: z.enum(reviewDecisions, { error: t.decision }),
      note: z.string({ error: t.note }).max(500, t.note).default("").meta({ description: "Kept with the decision" }),
      text: z
        .string({ error: t.reviewText })
        .max(2000, t.reviewText)
        .optional()
        .meta({ description: "changed: the obligation's new description (what it now requires)" }),
    })
    .strict();
}
export type ReviewDecisionInput = z.output<ReturnType<typeof reviewDecisionSchema>>;

export interface VersionRef {
  versionId: string;
  normId: string;
  publishedOn: string;
  inForceOn: string | null;
}

/** One review of an obligation, open (decision null) or decided. */
export interface ReviewEntry {
  id: string;
  openedAt: string;
  from: VersionRef & { text: string };
  to: VersionRef & { text: string };
  decision: ReviewDecision | null;
  note: string | null;
  newText: string | null;
  decidedBy: { id: string; name: string } | null;
  decidedAt: string | null;
}

type ReviewRow = typeof obligationReviews.$inferSelect;

async function refsOf(db: Db, ids: string[]): Promise<Map<string, VersionRef>> {
  if (ids.length === 0) return new Map();
  const rows = await rowsOf<{ id: string; norm_id: string; published_on: string; in_force_on: string | null }>(
    db,
    sql`select id::text as id, norm_id, published_on::text as published_on, in_force_on::text as in_force_on
      from law_block_versions where id in (${sql.join(
        [...new Set(ids)].map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
  );
  return new Map(
    rows.map((row) => [
      row.id,
      { versionId: row.id, normId: row.norm_id, publishedOn: row.published_on, inForceOn: row.in_force_on },
    ]),
  );
}

async function entriesOf(db: Db, rows: ReviewRow[]): Promise<ReviewEntry[]> {
  const refs = await refsOf(
    db,
    rows.flatMap((row) => [row.fromVersionId, row.toVersionId]),
  );
  const ref = (id: string): VersionRef =>
    refs.get(id) ?? { versionId: id, normId: "", publishedOn: "", inForceOn: null };
  return rows.map((row) => ({
    id: row.id,
    openedAt: row.openedAt.toISOString(),
    from: { ...ref(row.fromVersionId), text: row.fromText },
    to: { ...ref(row.toVersionId), text: row.toText },
    decision: row.decision,
    note: row.note,
    newText: row.newText,
    decidedBy: row.decidedBy ? { id: row.decidedBy, name: row.decidedByName ?? "" } : null,
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
  }));
}

/** Every review of an obligation of the organisation, oldest first. */
export async function reviewsOf(db: Db, organizationId: string, obligationId: string): Promise<ReviewEntry[]> {
  if (!z.uuid().safeParse(obligationId).success) return [];
  const rows = await db
    .select()
    .from(obligationReviews)
    .where(and(eq(obligationReviews.organizationId, organizationId), eq(obligationReviews.obligationId, obligationId)))
    .orderBy(asc(obligationReviews.openedAt), asc(obligationReviews.id));
  return entriesOf(db, rows);
}

export interface ReviewView {
  obligation: ObligationView;
  /** The open review, else the latest decided one (null when the article never changed). */
  review: ReviewEntry | null;
  /** The anchored wording against the new one, word by word (the open or latest review's). */
  diff: WordDiff | null;
  history: ReviewEntry[];
}

/** The review page's and API's view; undefined when the organisation has no such obligation. */
export async function reviewView(db: Db, organizationId: string, obligationId: string, now = new Date()) {
  const obligation = await getObligation(db, organizationId, obligationId, now);
  if (!obligation) return undefined;
  const history = await reviewsOf(db, organizationId, obligationId);
  const review = history.find((entry) => entry.decision === null) ?? history.at(-1) ?? null;
  return {
    obligation,
    review,
    diff: review ? compareWordings(paragraphsOf(review.from.text), paragraphsOf(review.to.text)) : null,
    history,
  } satisfies ReviewView;
}

export type ReviewOutcome =
  | { ok: true; obligation: ObligationView; review: ReviewEntry }
  | { ok: false; error: "not_found" }
  | { ok: false; error: "field"; errors: Record<string, string[]> };

/**
 * The reviewer's decision on the open review: re-anchored to the new version, kept with actor and
 * time, audited and sent to the organisation's webhooks, in one transaction.
 */
export async function decideReview(
  db: Db,
  actor: TriageActor,
  obligationId: string,
  input: ReviewDecisionInput,
  lang: Lang,
  now = new Date(),
): Promise<ReviewOutcome> {
  if (!z.uuid().safeParse(obligationId).success) return { ok: false, error: "not_found" };
  const t = triageText[lang];
  const outcome = await db.transaction(async (tx): Promise<ReviewOutcome> => {
    const key = and(eq(obligations.id, obligationId), eq(obligations.organizationId, actor.organizationId));
    const [current] = await tx.select().from(obligations).where(key).for("update");
    if (!current) return { ok: false, error: "not_found" };
    const [open] = await tx
      .select()
      .from(obligationReviews)
      .where(and(eq(obligationReviews.obligationId, obligationId), isNull(obligationReviews.decision)))
      .for("update");
    if (!open) return { ok: false, error: "field", errors: { decision: [t.noReview] } };
    const note = input.note.trim() || null;
    const newText = input.decision === "changed" ? input.text?.trim() || null : null;
    const [decided] = await tx
      .update(obligationReviews)
      .set({
        decision: input.decision,
        note,
        newText,
        decidedBy: actor.userId,
        decidedByName: actor.name,
        decidedAt: now,
      })
      .where(eq(obligationReviews.id, open.id))
      .returning();
    const next = {
      lawVersionId: open.toVersionId,
      excerpt: open.toText,
      status: input.decision === "no_longer_applies" ? ("not_applicable" as const) : current.status,
      description: newText ?? current.description,
    };
    const changes: ChangeSet = { review: { from: null, to: input.decision } };
    if (next.lawVersionId !== current.lawVersionId) {
      changes.lawVersionId = { from: current.lawVersionId, to: next.lawVersionId };
    }
    if (next.status !== current.status) changes.status = { from: current.status, to: next.status };
    if (next.description !== current.description) {
      changes.description = { from: current.description, to: next.description };
    }
    const [row] = await tx
      .update(obligations)
      .set({ ...next, updatedAt: now })
      .where(key)
      .returning();
    await tx.insert(obligationHistory).values({
      organizationId: actor.organizationId,
      obligationId,
      actorUserId: actor.userId,
      actorName: actor.name,
      at: now,
      changes,
      note,
    });
    const [entry] = await entriesOf(tx as unknown as Db, [decided!]);
    await queueTriageWebhookEvent(
      tx,
      actor.organizationId,
      "obligation.updated",
      {
        law: { id: current.lawId, blockId: current.blockId },
        obligation: { id: obligationId, title: row!.title, status: row!.status },
        review: entry,
        changes,
        actor: { id: actor.userId, name: actor.name },
      },
      now,
    );
    await auditObligation(tx, actor, "obligation.reviewed", row!, {
      reviewId: open.id,
      decision: input.decision,
      fromVersionId: open.fromVersionId,
      toVersionId: open.toVersionId,
      fromNorm: entry?.from.normId,
      toNorm: entry?.to.normId,
      ...(note ? { note } : {}),
    });
    return { ok: true, obligation: undefined as unknown as ObligationView, review: entry! };
  });
  if (!outcome.ok) return outcome;
  const obligation = await getObligation(db, actor.organizationId, obligationId, now);
  return { ...outcome, obligation: obligation! };
}
