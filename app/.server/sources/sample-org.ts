/**
 * The sample for one organisation (issue 39): the admin who asked for the sample follows the sample
 * law's two articles (sample-laws.ts) and gets a document profile for the high-relevance BOE rules,
 * both named "Muestra · …" / "Sample · …" so that every alert and mail they bring says it is sample
 * data. Then the sample law's recorded change and the documents of the day replayed as today are
 * matched against them: alerts, the triage queue ("new") and a law change on the first day.
 * Idempotent: the follow and the profile are created once per requester (found again by their law,
 * articles and name), and matching keeps one match per (document or change, profile). Another
 * organisation's data is never touched: everything is created inside the requester's organisation
 * and matched under the usual reach rules.
 */
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { docs as enDocs } from "../../i18n/en/docs.ts";
import { docs as esDocs } from "../../i18n/es/docs.ts";
import { relevanceRank } from "../alerts/profiles.ts";
import { recordAudit } from "../audit/record.ts";
import type { Database } from "../db/client.ts";
import { alertProfiles } from "../db/schema.ts";
import { createFollow } from "../laws/follows.ts";
import { SAMPLE_LAW, sampleLawChanges } from "./sample-laws.ts";

export interface SampleRequester {
  organizationId: string;
  userId: string;
  email: string;
  language: "es" | "en";
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export interface SampleMatching {
  /** Matches a law change against the follows (laws/service.ts lawAlertsFor().changed). */
  lawChanged(changeId: string): Promise<unknown>;
  /** Matches a stored document against the profiles (the alerts' queue, or at once). */
  documentStored(documentId: string): Promise<unknown>;
}

const names = { es: esDocs.admin.sampleNames, en: enDocs.admin.sampleNames };

/** The sample documents replayed as published today (record.replayedFrom). */
export async function replayedDocuments(database: Database): Promise<string[]> {
  const rows = await database.rows<{ id: string }>(
    sql`select id from documents where sample and record ? 'replayedFrom' order by source_id`,
  );
  return rows.map((row) => row.id);
}

/**
 * The requester's sample follow and profile, created when missing (each audited with the requester
 * as actor, `alert_profile.created` with `detail.sample`). Returns whether each was created now.
 */
export async function seedSampleOrganisation(
  database: Database,
  requester: SampleRequester,
  options: { maxFollows?: number | undefined } = {},
): Promise<{ follow: boolean; profile: boolean }> {
  const { organizationId, userId } = requester;
  const text = names[requester.language];
  const audit = {
    organizationId,
    actor: { id: userId, email: requester.email },
    ip: requester.ip,
    userAgent: requester.userAgent,
  };
  const created = { follow: false, profile: false };

  const [follow] = await database.db
    .select({ id: alertProfiles.id })
    .from(alertProfiles)
    .where(
      and(
        eq(alertProfiles.organizationId, organizationId),
        eq(alertProfiles.userId, userId),
        eq(alertProfiles.lawId, SAMPLE_LAW.id),
        sql`${alertProfiles.lawBlocks} @> ${sql.raw(`array[${SAMPLE_LAW.blocks.map((b) => `'${b}'`).join(",")}]`)}::text[]`,
      ),
    );
  if (!follow) {
    const made = await createFollow(
      database,
      organizationId,
      {
        lawId: SAMPLE_LAW.id,
        blockIds: [...SAMPLE_LAW.blocks],
        userId,
        name: text.follow,
        emailMode: "immediate",
        language: requester.language,
      },
      options.maxFollows,
    );
    if ("follow" in made) {
      created.follow = true;
      await database.db.transaction((tx) =>
        recordAudit(tx, {
          ...audit,
          action: "alert_profile.created",
          object: { type: "alert_profile", id: made.follow.id },
          detail: { sample: true, lawId: SAMPLE_LAW.id, blocks: [...SAMPLE_LAW.blocks] },
        }),
      );
    }
  }

  const [profile] = await database.db
    .select({ id: alertProfiles.id })
    .from(alertProfiles)
    .where(
      and(
        eq(alertProfiles.organizationId, organizationId),
        eq(alertProfiles.userId, userId),
        isNull(alertProfiles.lawId),
        sql`${alertProfiles.name} in (${names.es.profile}, ${names.en.profile})`,
      ),
    );
  if (!profile) {
    await database.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(alertProfiles)
        .values({
          id: crypto.randomUUID(),
          organizationId,
          userId,
          name: text.profile,
          sources: ["boe"],
          minRelevance: relevanceRank.high,
          emailMode: "digest",
          language: requester.language,
        })
        .returning({ id: alertProfiles.id });
      await recordAudit(tx, {
        ...audit,
        action: "alert_profile.created",
        object: { type: "alert_profile", id: row!.id },
        detail: { sample: true, sources: ["boe"], minRelevance: "high" },
      });
    });
    created.profile = true;
  }
  return created;
}

/** Matches what the sample holds against the organisations' follows and profiles (each once). */
export async function matchSample(database: Database, matching: SampleMatching): Promise<void> {
  for (const changeId of await sampleLawChanges(database)) await matching.lawChanged(changeId);
  for (const documentId of await replayedDocuments(database)) await matching.documentStored(documentId);
}

/** What the Sources page shows of the organisation's sample: its alerts so far. */
export async function sampleAlertsOf(database: Database, organizationId: string): Promise<number> {
  const [row] = await database.rows<{ n: number }>(sql`
    select count(*)::int as n from alerts a join alert_profiles p on p.id = a.profile_id
    where p.organization_id = ${organizationId}
      and (p.law_id = ${SAMPLE_LAW.id} or exists (select 1 from documents d where d.id = a.document_id and d.sample))`);
  return Number(row?.n ?? 0);
}

/** Whether the organisation has its sample follow already (the Sources page's "loaded for you"). */
export async function organisationHasSample(database: Database, organizationId: string): Promise<boolean> {
  const rows = await database.db
    .select({ id: alertProfiles.id })
    .from(alertProfiles)
    .where(
      and(
        eq(alertProfiles.organizationId, organizationId),
        isNotNull(alertProfiles.lawId),
        eq(alertProfiles.lawId, SAMPLE_LAW.id),
        sql`${alertProfiles.name} in (${names.es.follow}, ${names.en.follow})`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}
