/**
 * Obligations anchored to an article of a followed law (issue 39, decision 0146). When a law
 * source writes a new version of a block (or corrects a wording in place), `openAnchoredReviews`
 * runs inside that same transaction: every obligation anchored to the block whose anchored wording
 * is no longer the block's newest gets an open review (obligation_reviews; a review still open
 * moves to the newer version), and, in the same transaction, its owner is told: an in-app
 * notification, a mail through the platform mail outbox, an `obligation.review_needed` webhook
 * event for the organisation's subscriptions, and the digest lists the open reviews
 * (digestReviews). Nothing is sent to another organisation: the recipients are the owner (the
 * member, or the group's members; the creator when no owner is set), members of the obligation's
 * organisation only. A crash before the commit loses neither side: there is no version and no review.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { alertsChannel } from "../alerts/inbox.ts";
import type { Executor } from "../audit/executor.ts";
import { recordAudit } from "../audit/record.ts";
import { rowsOf } from "../db/rows.ts";
import { mailOutbox } from "../db/schema/auth.ts";
import { paragraphsOfVersion } from "../law-texts/diff.ts";
import { versionsOf } from "../law-texts/model.ts";
import { reviewMail } from "./review-mail.ts";
import { queueTriageWebhookEvent } from "./webhook-events.ts";

/** Where review links lead (the laws module's site URL: services.ts sets it at start). */
let siteUrl = "http://localhost:3000";
export function configureReviewLinks(url: string): void {
  siteUrl = url;
}

/** A version's wording as the obligation keeps it: its paragraphs, one a line. */
export function wordingOf(version: { html: string; text: string }): string {
  return paragraphsOfVersion(version).join("\n");
}

interface VersionRow {
  id: string;
  norm_id: string;
  published_on: string;
  in_force_on: string | null;
  html: string;
  text: string;
}

/** The newest wording of a block (the latest version, whether or not in force yet). */
export async function newestVersion(tx: Executor, lawId: string, blockId: string): Promise<VersionRow | undefined> {
  const rows = await rowsOf<VersionRow>(
    tx,
    sql`select id::text as id, norm_id, published_on::text as published_on, in_force_on::text as in_force_on, html, text
      from law_block_versions where law_id = ${lawId} and block_id = ${blockId}`,
  );
  return versionsOf({
    versions: rows.map((row) => ({
      ...row,
      normId: row.norm_id,
      publishedOn: row.published_on,
      inForceOn: row.in_force_on,
    })),
  }).at(-1);
}

export interface OpenedReview {
  reviewId: string;
  obligationId: string;
  organizationId: string;
}

/**
 * Inside the transaction that wrote new versions (or corrections) of `blockIds` of `lawId`: opens
 * (or moves) the reviews of the obligations anchored there and tells their owners. Returns the
 * reviews opened or moved.
 */
export async function openAnchoredReviews(
  tx: Executor,
  lawId: string,
  blockIds: readonly string[],
  now = new Date(),
): Promise<OpenedReview[]> {
  const out: OpenedReview[] = [];
  for (const blockId of new Set(blockIds)) {
    const anchored = await rowsOf<{
      id: string;
      organization_id: string;
      title: string;
      excerpt: string;
      law_version_id: string;
      owner_user_id: string | null;
      owner_team_id: string | null;
      created_by: string;
    }>(
      tx,
      sql`select id::text as id, organization_id, title, excerpt, law_version_id::text as law_version_id,
        owner_user_id, owner_team_id, created_by
        from obligations where anchor_kind = 'article' and law_id = ${lawId} and block_id = ${blockId}
          and status <> 'not_applicable'
        order by id for update`,
    );
    if (anchored.length === 0) continue;
    const newest = await newestVersion(tx, lawId, blockId);
    if (!newest) continue;
    const wording = wordingOf(newest);
    for (const obligation of anchored) {
      if (obligation.law_version_id === newest.id && obligation.excerpt === wording) continue;
      const [review] = await rowsOf<{ id: string }>(
        tx,
        sql`insert into obligation_reviews (organization_id, obligation_id, law_id, block_id, from_version_id, from_text,
            to_version_id, to_text, opened_at)
          values (${obligation.organization_id}, ${obligation.id}::uuid, ${lawId}, ${blockId},
            ${obligation.law_version_id}::uuid, ${obligation.excerpt}, ${newest.id}::uuid, ${wording}, ${now})
          on conflict (obligation_id) where decision is null do update
            set to_version_id = excluded.to_version_id, to_text = excluded.to_text, opened_at = excluded.opened_at
            where obligation_reviews.to_version_id <> excluded.to_version_id or obligation_reviews.to_text <> excluded.to_text
          returning id::text as id`,
      );
      if (!review) continue;
      await notifyReview(tx, { ...obligation, lawId, blockId }, review.id, newest, now);
      out.push({ reviewId: review.id, obligationId: obligation.id, organizationId: obligation.organization_id });
    }
  }
  return out;
}

interface Recipient {
  user_id: string;
  email: string;
  locale: string | null;
  mail: boolean;
}

async function notifyReview(
  tx: Executor,
  obligation: {
    id: string;
    organization_id: string;
    title: string;
    owner_user_id: string | null;
    owner_team_id: string | null;
    created_by: string;
    lawId: string;
    blockId: string;
  },
  reviewId: string,
  newest: VersionRow,
  now: Date,
): Promise<void> {
  const [law] = await rowsOf<{ title: string; block_title: string }>(
    tx,
    sql`select l.title, coalesce(nullif(b.title, ''), ${obligation.blockId}) as block_title from laws l
      left join law_blocks b on b.law_id = l.id and b.block_id = ${obligation.blockId} where l.id = ${obligation.lawId}`,
  );
  const lawTitle = law?.title ?? obligation.lawId;
  const blockTitle = law?.block_title ?? obligation.blockId;
  // The owner (a member, or every member of the group), else the creator: members of the
  // obligation's organisation only, active accounts only.
  const people = obligation.owner_user_id
    ? sql`select ${obligation.owner_user_id}::text as user_id`
    : obligation.owner_team_id
      ? sql`select tm.user_id from auth_team_member tm where tm.team_id = ${obligation.owner_team_id}`
      : sql`select ${obligation.created_by}::text as user_id`;
  const recipients = await rowsOf<Recipient>(
    tx,
    sql`select distinct u.id as user_id, u.email, u.locale, coalesce(s.mail, true) as mail
      from (${people}) p
      join auth_user u on u.id = p.user_id and coalesce(u.banned, false) = false
      join auth_member m on m.user_id = u.id and m.organization_id = ${obligation.organization_id}
      left join reminder_settings s on s.user_id = u.id
      order by u.id`,
  );
  for (const person of recipients) {
    const language = person.locale === "en" ? "en" : "es";
    const mail = reviewMail(
      { obligationId: obligation.id, title: obligation.title, lawTitle, blockTitle, normId: newest.norm_id },
      { language, siteUrl },
    );
    // The notification centre: the review's id is the row's document id (the document page sends
    // it on to the review), the obligation's the profile's; unread again when the review moves.
    await tx.execute(sql`delete from alerts where user_id = ${person.user_id} and document_id = ${reviewId}::uuid
      and profile_id = ${obligation.id}::uuid`);
    const inserted = await rowsOf<{ id: number | string }>(
      tx,
      sql`insert into alerts (user_id, document_id, profile_id, title, created_at)
        values (${person.user_id}, ${reviewId}::uuid, ${obligation.id}::uuid, ${mail.notice}, ${now}) returning id`,
    );
    const id = inserted[0]?.id;
    if (id !== undefined) await tx.execute(sql`select pg_notify(${alertsChannel}, ${String(id)})`);
    if (person.mail) {
      await tx.insert(mailOutbox).values({
        id: randomUUID(),
        kind: "obligation_review",
        to: person.email,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    }
  }
  await queueTriageWebhookEvent(
    tx,
    obligation.organization_id,
    "obligation.review_needed",
    {
      obligation: { id: obligation.id, title: obligation.title },
      review: { id: reviewId, openedAt: now.toISOString() },
      law: { id: obligation.lawId, title: lawTitle },
      block: { id: obligation.blockId, title: blockTitle },
      version: {
        normId: newest.norm_id,
        publishedOn: newest.published_on,
        inForceOn: newest.in_force_on,
      },
      url: `${siteUrl.replace(/\/$/, "")}/app/obligations/${obligation.id}/review`,
    },
    now,
  );
  await recordAudit(tx, {
    organizationId: obligation.organization_id,
    actor: null,
    action: "obligation.review_needed",
    object: { type: "obligation", id: obligation.id },
    detail: {
      reviewId,
      lawId: obligation.lawId,
      blockId: obligation.blockId,
      normId: newest.norm_id,
      recipients: recipients.length,
    },
  });
}

/** Where a notification of a review leads: the review page of the member's organisation's obligation. */
export async function reviewPathOf(
  tx: Executor,
  organizationId: string,
  reviewId: string,
): Promise<string | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(reviewId)) return undefined;
  const [row] = await rowsOf<{ obligation_id: string }>(
    tx,
    sql`select obligation_id::text as obligation_id from obligation_reviews
      where id = ${reviewId}::uuid and organization_id = ${organizationId}`,
  );
  return row ? `/app/obligations/${row.obligation_id}/review` : undefined;
}

/** The open reviews a user owns (their own, their groups', or created without owner), for the digest. */
export async function digestReviews(
  tx: Executor,
  userId: string,
): Promise<Array<{ obligationId: string; title: string; lawTitle: string; blockTitle: string }>> {
  const rows = await rowsOf<{ obligation_id: string; title: string; law_title: string; block_title: string }>(
    tx,
    sql`select o.id::text as obligation_id, o.title, coalesce(l.title, o.law_id) as law_title,
        coalesce(nullif(b.title, ''), o.block_id) as block_title
      from obligation_reviews r join obligations o on o.id = r.obligation_id
      left join laws l on l.id = o.law_id
      left join law_blocks b on b.law_id = o.law_id and b.block_id = o.block_id
      where r.decision is null
        and o.organization_id in (select organization_id from auth_member where user_id = ${userId})
        and (o.owner_user_id = ${userId}
          or o.owner_team_id in (select team_id from auth_team_member where user_id = ${userId})
          or (o.owner_user_id is null and o.owner_team_id is null and o.created_by = ${userId}))
      order by r.opened_at, o.id limit 30`,
  );
  return rows.map((row) => ({
    obligationId: row.obligation_id,
    title: row.title,
    lawTitle: row.law_title,
    blockTitle: row.block_title,
  }));
}
