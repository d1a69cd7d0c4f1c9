/**
 * A followed law's alert killed between its two phases, on the embedded database and
 * (TEST_DATABASE_URL set) on PostgreSQL. Phase one stores the follows a change matches
 * (alert_matches, fanout_pending); phase two writes their deliveries in batches of 1,000
 * (laws/matching.ts). A BOE act that modifies a law 2,500 members follow (each their own follow) is
 * handed to the pipeline at start (early warning). The server kills itself after phase one
 * (FAULT_AT=law.matches-stored), then, restarted, after the first fan-out batch
 * (law.fanout-batch@1); the third start finishes. After: 2,500 matches, none pending, one in-app
 * delivery and one alert per member, the audit chains valid.
 */
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import { insertDocument } from "../support/evidence-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";
import { auditVerify, populateOrganisation, prepareSite, runUntilDone, runUntilKilled, type Site } from "./harness.ts";

const followers = 2_500;
const lawId = "BOE-A-2010-10544";

async function prepareLaw(database: Database): Promise<void> {
  await populateOrganisation(database, { organizationId: "org-law", members: followers, team: "team-law" });
  await database.rows(sql`insert into laws (id, source, title) values (${lawId}, 'boe', 'Ley de prueba')`);
  await database.rows(sql`insert into alert_profiles (id, organization_id, user_id, name, email_mode, law_id)
    select gen_random_uuid(), 'org-law', id, 'Ley de prueba', 'off', ${lawId} from auth_user`);
  const documentId = await insertDocument(database, {
    source: "boe",
    sourceId: "BOE-A-2026-8001",
    title: "Real Decreto que modifica la Ley de prueba",
    publishedOn: "2026-12-02",
    areaIds: ["banking"],
  });
  await database.rows(sql`insert into document_relations (document_id, type, code, direction, target_source, target_source_id, label)
    values (${documentId}::uuid, 'modifies', '270', 'earlier', 'boe', ${lawId}, 'MODIFICA')`);
  // Stored by an ingestion that stopped before handing it over: the start hands it over (decision 0145).
  await database.rows(sql`update documents set pipeline_pending = 'new' where id = ${documentId}::uuid`);
}

interface LawState {
  changes: number;
  matches: number;
  pending: number;
  deliveries: number;
  distinct: number;
  sent: number;
  alerts: number;
  alertUsers: number;
}

const readState = (database: Database) =>
  database
    .rows<LawState>(sql`select
      (select count(*)::int from law_changes) as changes,
      (select count(*)::int from alert_matches) as matches,
      (select count(*)::int from alert_matches where fanout_pending) as pending,
      (select count(*)::int from deliveries where channel = 'inapp') as deliveries,
      (select count(distinct (match_key, channel, recipient))::int from deliveries where channel = 'inapp') as distinct,
      (select count(*)::int from deliveries where channel = 'inapp' and status = 'sent') as sent,
      (select count(*)::int from alerts) as alerts,
      (select count(distinct user_id)::int from alerts) as "alertUsers"`)
    .then((rows) => rows[0] as LawState);

describe.each(databaseTargets())("a law alert killed between its phases ($name)", (target) => {
  let site: Site | undefined;
  afterAll(async () => {
    await target.cleanup();
    site?.remove();
  });

  it("fans out every follower once after the restarts", async () => {
    site = await prepareSite(target, "law");
    await site.withDatabase(prepareLaw);

    await runUntilKilled(site, "law.matches-stored");
    // Phase one done: the change and its 2,500 matches, waiting for their fan-out.
    expect(await site.withDatabase(readState)).toMatchObject({
      changes: 1,
      matches: followers,
      pending: followers,
      deliveries: 0,
    });

    // The start finishes half-written law alerts: killed after its first batch of 1,000.
    await runUntilKilled(site, "law.fanout-batch@1");
    expect(await site.withDatabase(readState)).toMatchObject({
      changes: 1,
      matches: followers,
      pending: followers - 1000,
      deliveries: 1000,
      distinct: 1000,
    });

    await runUntilDone(site, async (database) => (await readState(database)).sent === followers, {
      what: "law alerts sent",
    });
    expect(await site.withDatabase(readState)).toEqual({
      changes: 1,
      matches: followers,
      pending: 0,
      deliveries: followers,
      distinct: followers,
      sent: followers,
      alerts: followers,
      alertUsers: followers,
    });
    const audit = await auditVerify(site);
    expect(audit.code, audit.output).toBe(0);
  }, 600_000);
});
