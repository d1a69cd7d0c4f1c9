/**
 * A law change against the follows of every organisation: the alert profiles with that law_id
 * (not muted) whose scope (whole law, a title/chapter standing for what it heads, or chosen
 * blocks) covers a changed block, or every follower when an announcement names no article. As
 * for documents (alerts/matching.ts): one alert_matches row per (change, profile) (the change id
 * is the match's document id), and each new match enqueues its deliveries in the same
 * transaction: in-app for each recipient (user, or the group's members), a ready mail ("mail"
 * channel, with the new wording and the comparison link) when the profile mails immediately.
 * Reach: consolidated BOE law is public to every organisation; an announcement is matched only
 * for organisations its announcing document reaches (documents/reach.ts).
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { insertDeliveries, type NewDelivery } from "../alerts/channels/deliveries.ts";
import { queueWebhookEvent } from "../alerts/channels/webhook/index.ts";
import { insertMatches } from "../alerts/matches.ts";
import type { AlertDirectory, Recipient } from "../alerts/matching.ts";
import type { Lang } from "../alerts/profiles.ts";
import { followWhy, type MatchWhy, readWhy, whyForWebhook } from "../alerts/why.ts";
import type { Database } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import { alertProfiles, lawAnnouncements, lawChanges, laws } from "../db/schema.ts";
import { reachesDocument } from "../documents/reach.ts";
import { faultPoint } from "../kernel/fault.ts";
import type { ChangedBlockDetail } from "../law-texts/changes.ts";
import { coveredBlocks } from "../law-texts/model.ts";
import { loadBlocks } from "../law-texts/store.ts";
import { type LawChangeView, lawAlertMail, lawAlertTitle } from "./alert-mail.ts";
import { lawChangeLink, lawCompareLink } from "./links.ts";

export interface LawMatchDeps {
  directory: AlertDirectory;
  siteUrl: string;
  mailFrom: string;
}

export interface LawMatchResult {
  candidates: number;
  matched: number;
  newMatches: number;
  deliveries: number;
}

export interface ProfileRow {
  id: string;
  organizationId: string;
  userId: string | null;
  groupId: string | null;
  name: string;
  emailMode: string;
  lawBlocks: string[];
}

async function changeView(database: Database, changeId: string): Promise<LawChangeView | undefined> {
  const [row] = await database.db
    .select({ change: lawChanges, lawTitle: laws.title })
    .from(lawChanges)
    .innerJoin(laws, eq(laws.id, lawChanges.lawId))
    .where(eq(lawChanges.id, changeId));
  if (!row) return undefined;
  const { change } = row;
  const blocks = await loadBlocks(database, change.lawId);
  const titleOf = new Map(blocks.map((b) => [b.blockId, b.title || b.blockId]));
  const details = (change.details ?? {}) as { blocks?: ChangedBlockDetail[]; documentId?: string; relation?: string };
  let act: LawChangeView["act"];
  if (change.kind === "announced" && change.announcementId) {
    const [a] = await database.db.select().from(lawAnnouncements).where(eq(lawAnnouncements.id, change.announcementId));
    if (a) act = { id: a.actId, documentId: a.documentId, relation: a.relationText, publishedOn: a.publishedOn };
  }
  return {
    changeId,
    kind: change.kind === "announced" ? "announced" : "consolidated",
    lawId: change.lawId,
    lawTitle: row.lawTitle,
    blockTitles: change.blockIds.map((id) => titleOf.get(id) ?? id),
    blocks: details.blocks ?? [],
    previousChangeId: change.previousChangeId,
    ...(act ? { act } : {}),
  };
}

/** What matching and the fan-out read of a follow (its owner, name and mail mode). */
const followColumns = {
  id: alertProfiles.id,
  organizationId: alertProfiles.organizationId,
  userId: alertProfiles.userId,
  groupId: alertProfiles.groupId,
  name: alertProfiles.name,
  emailMode: alertProfiles.emailMode,
};

/** The follows a change matches (with the changed blocks each covers), and how many were looked at. */
export async function findMatchingFollows(
  database: Database,
  change: { lawId: string; blockIds: string[] },
  announcingDocument: string | null,
): Promise<{ candidates: ProfileRow[]; matched: Array<{ profile: ProfileRow; hits: string[] }> }> {
  const blocks = await loadBlocks(database, change.lawId);
  const changed = change.blockIds;
  // The blocks whose follow covers a changed block: the block itself and the titles/chapters above
  // it. The database then keeps only the follows naming one of them (or the whole law).
  const covers = new Map<string, string[]>(changed.map((id) => [id, [id]]));
  for (const heading of blocks.filter((b) => b.kind === "encabezado")) {
    const covered = coveredBlocks(blocks, [heading.blockId]);
    const hits = changed.filter((id) => id !== heading.blockId && covered.has(id));
    if (hits.length) covers.set(heading.blockId, [...new Set([...(covers.get(heading.blockId) ?? []), ...hits])]);
  }
  const covering = [...covers.keys()];
  const candidates = (await database.db
    .select({ ...followColumns, lawBlocks: alertProfiles.lawBlocks })
    .from(alertProfiles)
    .where(
      and(
        eq(alertProfiles.lawId, change.lawId),
        eq(alertProfiles.muted, false),
        changed.length === 0
          ? sql`true`
          : sql`(cardinality(${alertProfiles.lawBlocks}) = 0 or ${alertProfiles.lawBlocks} && array(select jsonb_array_elements_text(${JSON.stringify(covering)}::jsonb)))`,
        ...(announcingDocument ? [reachesDocument(sql`${alertProfiles.organizationId}`, announcingDocument)] : []),
      ),
    )) as ProfileRow[];
  const matched: Array<{ profile: ProfileRow; hits: string[] }> = [];
  for (const profile of candidates) {
    if (profile.lawBlocks.length === 0 || changed.length === 0) {
      matched.push({ profile, hits: changed });
      continue;
    }
    const hits = new Set<string>();
    for (const id of profile.lawBlocks) for (const hit of covers.get(id) ?? []) hits.add(hit);
    if (hits.size > 0) matched.push({ profile, hits: changed.filter((id) => hits.has(id)) });
  }
  return { candidates, matched };
}

/**
 * Matches a change and alerts its followers: the matches (and the `law.changed` events) are stored
 * first, in one transaction, then every new match's deliveries are written (fanOutLawMatches).
 * A law can have thousands of followers: storing the matches is what must be quick; the fan-out
 * works through them in batches, each batch's deliveries in one transaction with its matches
 * marked done, so a crash between the two phases loses nothing (the next sweep finishes it).
 */
export async function matchLawChange(
  database: Database,
  changeId: string,
  deps: LawMatchDeps,
): Promise<LawMatchResult> {
  const stored = await storeLawMatches(database, changeId, deps);
  // Between the phases: the matches stored, waiting for their fan-out (the next sweep's work).
  faultPoint("law.matches-stored");
  // Always: matched again after a crash between the phases, the change has no new matches but
  // its pending ones still wait for their deliveries.
  const fanned = await fanOutLawMatches(database, deps, { changeId });
  return { ...stored, deliveries: stored.deliveries + fanned };
}

/**
 * Phase one: the follows a change matches, stored as alert_matches rows waiting for their fan-out
 * (fanout_pending), and the `law.changed` webhook events, in one transaction that also clears the
 * change's match_pending. `deliveries` counts the webhook events only.
 */
export async function storeLawMatches(
  database: Database,
  changeId: string,
  deps: Pick<LawMatchDeps, "siteUrl">,
): Promise<LawMatchResult> {
  const none = { candidates: 0, matched: 0, newMatches: 0, deliveries: 0 };
  const view = await changeView(database, changeId);
  if (!view) return none;
  const [change] = await database.db.select().from(lawChanges).where(eq(lawChanges.id, changeId));
  if (!change) return none;
  const { candidates, matched } = await findMatchingFollows(database, change, view.act?.documentId ?? null);
  // The change is matched: a start no longer needs to (law_changes.match_pending, decision 0162).
  const matchedNow = sql`update law_changes set match_pending = false where id = ${changeId}::uuid and match_pending`;
  if (matched.length === 0) {
    await database.rows(matchedNow);
    return { ...none, candidates: candidates.length };
  }
  const blocks = await loadBlocks(database, change.lawId);
  const titleOf = new Map(blocks.map((b) => [b.blockId, b.title || b.blockId]));

  const law = { id: change.lawId, title: view.lawTitle, change: view.kind, act: view.act?.id };
  // Why each follow matched (decision 0148): the followed articles that changed, kept with the match.
  const whys = matched.map(({ profile, hits }) => ({
    profile,
    why: followWhy(
      profile,
      law,
      hits.map((id) => ({ id, title: titleOf.get(id) ?? id })),
    ),
  }));

  return database.db.transaction(async (tx) => {
    const inserted = await insertMatches(
      tx,
      changeId,
      whys.map(({ profile, why }) => ({ profileId: profile.id, reasons: why })),
      { fanOutLater: true },
    );
    await tx.execute(matchedNow);
    // `law.changed` to the webhooks of every organisation that follows what changed (once per change).
    let enqueued = 0;
    const organisations = new Set(matched.map(({ profile }) => profile.organizationId));
    for (const organisationId of organisations) {
      enqueued += await queueWebhookEvent(tx, {
        organisationId,
        type: "law.changed",
        key: changeId,
        data: {
          ...lawChangedEvent(view, deps.siteUrl),
          // The organisation's follows this change matched, and why (decision 0148).
          why: whys
            .filter(({ profile }) => profile.organizationId === organisationId)
            .map(({ why }) => whyForWebhook(why)),
        },
      });
    }
    return {
      candidates: candidates.length,
      matched: matched.length,
      newMatches: inserted.length,
      deliveries: enqueued,
    };
  });
}

/** Matches fanned out per transaction. */
const fanOutBatch = 1000;

/**
 * Phase two: the deliveries of law matches still waiting for them (one change's, or every
 * change's: the sweep after a crash), in batches. Each batch is claimed by turning its
 * fanout_pending off in the transaction that stores its deliveries, so two instances never
 * write the same batch and a batch is either wholly done or still pending. In-app for each
 * recipient (the user, or the group's members), and a ready mail when the follow mails at once
 * (a follow in the digest gets its alert in the day's digest, which reads the in-app alerts).
 * Returns how many deliveries were stored.
 */
export async function fanOutLawMatches(
  database: Database,
  deps: LawMatchDeps,
  options: { changeId?: string } = {},
): Promise<number> {
  const views = new Map<string, { view: LawChangeView; titles: Record<Lang, string> } | null>();
  let stored = 0;
  for (;;) {
    const pending = await database.rows<{ id: string; document_id: string; profile_id: string; reasons: unknown }>(sql`
      select id, document_id, profile_id, reasons from alert_matches
      where fanout_pending ${options.changeId ? sql`and document_id = ${options.changeId}::uuid` : sql``}
      order by created_at, id limit ${fanOutBatch}`);
    if (pending.length === 0) return stored;
    const profiles = await database.db
      .select(followColumns)
      .from(alertProfiles)
      .where(
        sql`${alertProfiles.id} in (select (jsonb_array_elements_text(${JSON.stringify(pending.map((p) => p.profile_id))}::jsonb))::uuid)`,
      );
    const byId = new Map(profiles.map((p) => [p.id, p]));
    const userIds = [...new Set(profiles.flatMap((p) => (p.userId ? [p.userId] : [])))];
    const groupIds = [...new Set(profiles.flatMap((p) => (p.groupId ? [p.groupId] : [])))];
    const [users, groups] = await Promise.all([
      userIds.length ? deps.directory.users(userIds) : new Map<string, Recipient>(),
      groupIds.length ? deps.directory.groupMembers(groupIds) : new Map<string, Recipient[]>(),
    ]);
    for (const changeId of new Set(pending.map((p) => p.document_id))) {
      if (views.has(changeId)) continue;
      const view = await changeView(database, changeId);
      views.set(
        changeId,
        view ? { view, titles: { es: lawAlertTitle(view, "es"), en: lawAlertTitle(view, "en") } } : null,
      );
    }
    stored += await database.db.transaction(async (tx) => {
      const claimed = await rowsOf<{ id: string }>(
        tx,
        sql`update alert_matches set fanout_pending = false
          where fanout_pending and id in (select (jsonb_array_elements_text(${JSON.stringify(pending.map((p) => p.id))}::jsonb))::uuid)
          returning id`,
      );
      const mine = new Set(claimed.map((row) => row.id));
      const rows: NewDelivery[] = [];
      for (const match of pending) {
        const profile = byId.get(match.profile_id);
        const change = views.get(match.document_id);
        // A profile deleted meanwhile (its matches go with it) or a change gone: nothing to send.
        if (!mine.has(match.id) || !profile || !change) continue;
        const recipients = profile.userId
          ? [users.get(profile.userId)].filter((r): r is Recipient => Boolean(r))
          : (groups.get(profile.groupId ?? "") ?? []);
        const why: MatchWhy | undefined = readWhy(
          typeof match.reasons === "string" ? JSON.parse(match.reasons) : match.reasons,
        );
        for (const recipient of recipients) {
          rows.push({
            id: randomUUID(),
            matchKey: match.id,
            kind: "inapp",
            recipient: recipient.userId,
            organizationId: profile.organizationId,
            giveUpAt: null,
            payload: {
              userId: recipient.userId,
              documentId: match.document_id,
              profileId: profile.id,
              title: change.titles[recipient.language],
              ...(why ? { why } : {}),
            },
          });
          if (profile.emailMode === "immediate") {
            const deliveryId = randomUUID();
            rows.push({
              id: deliveryId,
              matchKey: match.id,
              kind: "mail",
              recipient: recipient.userId,
              organizationId: profile.organizationId,
              giveUpAt: null,
              payload: lawAlertMail(change.view, {
                from: deps.mailFrom,
                siteUrl: deps.siteUrl,
                to: recipient.email,
                language: recipient.language,
                profileId: profile.id,
                profileName: profile.name,
                key: deliveryId,
                ...(why ? { why } : {}),
              }),
            });
          }
        }
      }
      return insertDeliveries(tx, rows);
    });
    // A batch committed, the rest still pending.
    faultPoint("law.fanout-batch");
  }
}

/** The `law.changed` webhook event's data: the law, what changed, the act, the platform's links. */
export function lawChangedEvent(view: LawChangeView, siteUrl: string): Record<string, unknown> {
  return {
    change: {
      id: view.changeId,
      kind: view.kind,
      previousChangeId: view.previousChangeId,
      url: lawChangeLink(siteUrl, view.lawId, view.changeId),
    },
    law: { id: view.lawId, title: view.lawTitle },
    blocks: view.blocks.map((block) => ({
      id: block.blockId,
      title: block.title,
      ...(block.normId ? { normId: block.normId } : {}),
      compareUrl: lawCompareLink(siteUrl, view.lawId, block.blockId, block.normId),
    })),
    ...(view.act ? { act: view.act } : {}),
  };
}
