/**
 * Matching, as a job function: one document against every non-muted profile and every webhook
 * subscription of the organisations within whose reach it is (documents/reach.ts: a feed entry
 * only reaches the organisation whose feed brought it). Matches are recorded once per (document, profile) (unique index, insert … on
 * conflict do nothing), and each new match enqueues its deliveries in the same transaction, so a
 * delivery exists exactly when its match does, even when two instances run this at once.
 */
import { randomUUID } from "node:crypto";
import { and, arrayContains, arrayOverlaps, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Database, Db } from "../db/client.ts";
import { alertProfiles, webhooks } from "../db/schema.ts";
import { organisationViews } from "../documents/corrections.ts";
import { reachesLoadedDocument } from "../documents/reach.ts";
import { insertDeliveries, type NewDelivery } from "./channels/deliveries.ts";
import { registeredChannels } from "./channels/index.ts";
import type { AlertDirectory, ProfileMatch, Recipient } from "./channels/types.ts";
import { webhookDelivery } from "./channels/webhook/index.ts";
import { insertMatches } from "./matches.ts";
import { type MatchableDocument, matches, type Profile, relevanceRank } from "./profiles.ts";
import { documentWhy, whyForWebhook } from "./why.ts";

export type { AlertDirectory, Recipient };

/** Loads a stored Document (the contract's shape) by id; the documents capability provides it. */
export type DocumentLoader = (documentId: string) => Promise<(MatchableDocument & Record<string, unknown>) | undefined>;

export interface MatchResult {
  candidates: number;
  matched: number;
  newMatches: number;
  deliveries: number;
}

/** The SQL prefilter: the organisation-independent filters a document decides by itself. */
function prefilter(table: typeof alertProfiles | typeof webhooks, document: MatchableDocument) {
  const areaIds = document.areas.map((area) => area.id);
  return [
    or(sql`cardinality(${table.areas}) = 0`, areaIds.length ? arrayOverlaps(table.areas, areaIds) : sql`false`),
    or(sql`cardinality(${table.jurisdictions}) = 0`, arrayContains(table.jurisdictions, [document.jurisdiction])),
    or(sql`cardinality(${table.kinds}) = 0`, arrayContains(table.kinds, [document.kind])),
    or(sql`cardinality(${table.sources}) = 0`, arrayContains(table.sources, [document.source])),
    lte(table.minRelevance, relevanceRank[document.relevance] ?? 0),
  ];
}

/**
 * What else happens, in the match's transaction, for the organisations a document's new matches
 * reach: triage starts the document as "new" there (triage/store.ts startTriage, wired in
 * services.ts). Alerts know nothing of triage.
 */
export type OnMatched = (
  tx: Db,
  document: { id: string; effectiveDates?: unknown },
  organizationIds: readonly string[],
  now: Date,
) => Promise<unknown>;

export async function matchDocument(
  database: Database,
  documentId: string,
  deps: { loadDocument: DocumentLoader; directory: AlertDirectory; now?: Date; onMatched?: OnMatched | undefined },
): Promise<MatchResult> {
  const document = await deps.loadDocument(documentId);
  if (!document) return { candidates: 0, matched: 0, newMatches: 0, deliveries: 0 };
  const { db } = database;
  // Each organisation's corrections of the areas (documents/corrections.ts): the prefilter lets
  // through every area any organisation added; each profile is matched on its organisation's view.
  const views = await organisationViews(db, document);
  const candidates = (await db
    .select()
    .from(alertProfiles)
    .where(
      and(
        eq(alertProfiles.muted, false),
        // Follows of a law (issue 25) hear about that law's changes only (laws/matching.ts).
        isNull(alertProfiles.lawId),
        reachesLoadedDocument(sql`${alertProfiles.organizationId}`, { id: documentId, source: document.source }),
        ...prefilter(alertProfiles, views.widened),
      ),
    )) as Profile[];
  const matched = candidates
    .map((profile) => {
      const view = views.of(profile.organizationId);
      const result = matches(profile, view);
      return { profile, result, why: documentWhy("profile", profile, result.hits, view, profile) };
    })
    .filter((entry) => entry.result.matched);
  const hooks = await db
    .select({
      id: webhooks.id,
      organizationId: webhooks.organizationId,
      query: webhooks.query,
      areas: webhooks.areas,
      jurisdictions: webhooks.jurisdictions,
      kinds: webhooks.kinds,
      sources: webhooks.sources,
      minRelevance: webhooks.minRelevance,
    })
    .from(webhooks)
    .where(
      and(
        reachesLoadedDocument(sql`${webhooks.organizationId}`, { id: documentId, source: document.source }),
        arrayContains(webhooks.events, ["document.matched"]),
        // A disabled webhook gets nothing new (a failing one does: held until an admin resumes it).
        isNull(webhooks.disabledAt),
        ...prefilter(webhooks, views.widened),
      ),
    );
  const matchedHooks = hooks.flatMap((hook) => {
    const view = views.of(hook.organizationId);
    const result = matches(hook, view);
    return result.matched ? [{ hook, why: documentWhy("webhook", hook, result.hits, view) }] : [];
  });

  // Recipients, read once for every matched profile (outside the transaction: no locks held).
  const userIds = [...new Set(matched.flatMap(({ profile }) => (profile.userId ? [profile.userId] : [])))];
  const groupIds = [...new Set(matched.flatMap(({ profile }) => (profile.groupId ? [profile.groupId] : [])))];
  const [users, groups] = await Promise.all([
    userIds.length ? deps.directory.users(userIds) : new Map<string, Recipient>(),
    groupIds.length ? deps.directory.groupMembers(groupIds) : new Map<string, Recipient[]>(),
  ]);

  const now = deps.now ?? new Date();
  const title = document.title;
  const officialUrl = String(document.officialUrl ?? "");
  const publishedOn = String(document.publishedOn ?? "");

  return db.transaction(async (tx) => {
    const inserted = await insertMatches(
      tx,
      documentId,
      // The match keeps why it matched (decision 0148): every delivery of it says the same.
      matched.map(({ profile, why }) => ({ profileId: profile.id, reasons: why })),
    );
    const byId = new Map(matched.map(({ profile }) => [profile.id, profile]));
    const whyOf = new Map(matched.map(({ profile, why }) => [profile.id, why]));
    const channels = registeredChannels();
    // Triage (issue 26): each organisation this alert reaches gets the document as "new".
    await deps.onMatched?.(
      tx,
      document,
      inserted.flatMap((m) => byId.get(m.profileId)?.organizationId ?? []),
      now,
    );
    const rows: NewDelivery[] = [];
    for (const match of inserted) {
      const profile = byId.get(match.profileId);
      if (!profile) continue;
      const recipients = profile.userId
        ? [users.get(profile.userId)].filter((r): r is Recipient => Boolean(r))
        : (groups.get(profile.groupId ?? "") ?? []);
      const context: ProfileMatch = {
        matchId: match.id,
        documentId,
        document: { title, officialUrl, publishedOn },
        profile,
        recipients,
        now,
        why: whyOf.get(profile.id) ?? documentWhy("profile", profile, { areas: [], terms: [] }, document, profile),
      };
      // Each channel builds its own payloads (in-app, mail now, Slack, Teams, …).
      for (const channel of channels)
        for (const prepared of channel.prepare?.(context) ?? [])
          rows.push({
            id: randomUUID(),
            matchKey: match.id,
            kind: prepared.kind,
            recipient: prepared.recipient,
            organizationId: profile.organizationId,
            payload: prepared.payload,
            giveUpAt: prepared.giveUpAt ?? null,
          });
    }
    for (const { hook, why } of matchedHooks)
      rows.push(
        webhookDelivery(hook, {
          type: "document.matched",
          matchKey: `webhook:${documentId}`,
          data: { document: views.of(hook.organizationId), why: whyForWebhook(why) },
          now,
        }),
      );
    const enqueued = await insertDeliveries(tx, rows);
    return {
      candidates: candidates.length,
      matched: matched.length,
      newMatches: inserted.length,
      deliveries: enqueued,
    };
  });
}
