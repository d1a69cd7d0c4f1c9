/**
 * A consolidated-law poll killed between its phases, on the embedded database and
 * (TEST_DATABASE_URL set) on PostgreSQL, with the recorded BOE-A-2015-10565 moving in time through
 * the replay server (its article 28 gets the wording of BOE-A-2018-16673 on 2018-12-06). The poll
 * writes each changed block's versions in its own transaction (marked unreported), then records
 * the law change the follows are matched against (decision 0162).
 *
 * A member follows the law and owns an obligation anchored to article 28; the law was fetched as
 * of 2018-12-05. The replay moves to 2018-12-06 and the built server (ingestion on, its law poll
 * queued at start) kills itself once the versions are stored (FAULT_AT=law.versions-stored), then,
 * restarted, once the change is recorded and before it is matched (law.change-recorded); the third
 * start finishes. After: one change, one match, the follow's in-app alert delivered once, the
 * obligation in review once (one notification, one mail), nothing left marked, the audit chain valid.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseDirectory } from "../../app/.server/alerts/directory.ts";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createFollow } from "../../app/.server/laws/follows.ts";
import { lawAlertsFor } from "../../app/.server/laws/service.ts";
import { pollAndAlert } from "../../app/.server/sources/consolidated/alerting.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { createLawObligation, lawObligationCreateSchema } from "../../app/.server/triage/obligations.ts";
import { ensureMember } from "../support/api-tokens.ts";
import { databaseTargets } from "../support/postgres.ts";
import { auditVerify, authSecret, note, prepareSite, runUntilDone, runUntilKilled, type Site } from "./harness.ts";

const LAW = "BOE-A-2015-10565";
const silent = { info() {}, warn() {} };

interface PollState {
  changes: number;
  matchPending: number;
  unreported: number;
  matches: number;
  deliveries: number;
  sent: number;
  lawAlerts: number;
  reviews: number;
  reviewAlerts: number;
  reviewMails: number;
}

const readState = (database: Database) =>
  database
    .rows<PollState>(sql`select
      (select count(*)::int from law_changes where kind = 'consolidated') as changes,
      (select count(*)::int from law_changes where match_pending) as "matchPending",
      (select count(*)::int from law_block_versions where unreported is not null) as unreported,
      (select count(*)::int from alert_matches) as matches,
      (select count(*)::int from deliveries where channel = 'inapp') as deliveries,
      (select count(*)::int from deliveries where channel = 'inapp' and status = 'sent') as sent,
      (select count(*)::int from alerts where document_id in (select id from law_changes)) as "lawAlerts",
      (select count(*)::int from obligation_reviews) as reviews,
      (select count(*)::int from alerts where document_id in (select id from obligation_reviews)) as "reviewAlerts",
      (select count(*)::int from mail_outbox where kind = 'obligation_review') as "reviewMails"`)
    .then((rows) => rows[0] as PollState);

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay?.close();
});

describe.each(databaseTargets())("a law poll killed between its phases ($name)", (target) => {
  let site: Site | undefined;
  afterAll(async () => {
    await target.cleanup();
    site?.remove();
  });

  it("records the change once and alerts the follow and the obligation once after the restarts", async () => {
    site = await prepareSite(target, "law-poll");
    replay.setLawDate("2018-12-05", LAW);
    await site.withDatabase(async (database) => {
      setAuditSecret(authSecret);
      await ensureMember(database, { organizationId: "org-law", userId: "ana", email: "ana@law.example" });
      const follow = await createFollow(database, "org-law", {
        lawId: LAW,
        blockIds: [],
        userId: "ana",
        emailMode: "off",
        language: "es",
      });
      expect("follow" in follow).toBe(true);
      // The law's first fetch (alerts nobody), as it stood on 2018-12-05.
      const first = await pollAndAlert({
        now: () => new Date("2018-12-05T12:00:00Z"),
        database,
        http: createSourceHttp({ userAgent: "test", source: "boe", perSecond: 10_000, retries: 1, backoffMs: 10 }),
        baseUrl: replay.url,
        log: silent,
        lawAlerts: lawAlertsFor(database, databaseDirectory(database)),
      });
      expect(first.laws).toMatchObject([{ lawId: LAW, status: "first" }]);
      const made = await createLawObligation(
        database.db,
        { organizationId: "org-law", userId: "ana", name: "Ana", email: "ana@law.example" },
        LAW,
        lawObligationCreateSchema("es").parse({ block: "a28", title: "Aportar documentos al procedimiento" }),
        "es",
      );
      expect(made.ok).toBe(true);
      expect(await readState(database)).toMatchObject({ changes: 0, unreported: 0, reviews: 0 });
    });
    note("law fetched as of 2018-12-05, followed, obligation on a28");

    // The BOE publishes article 28's new wording; the server's law poll (queued at start) stores it.
    replay.setLawDate("2018-12-06", LAW);
    const env = { INGEST_SOURCES: "boe", BOE_API_URL: replay.url, LOG_LEVEL: "warn" };
    await runUntilKilled(site, "law.versions-stored", { env });
    const stored = await site.withDatabase(readState);
    // The versions stored and marked, the obligation in review (same transaction), no change recorded.
    expect(stored).toMatchObject({ changes: 0, matches: 0, reviews: 1, reviewAlerts: 1, reviewMails: 1 });
    expect(stored.unreported).toBeGreaterThan(0);

    // The restart records the change from the marks (the start, or the poll's sweep): killed before matching it.
    await runUntilKilled(site, "law.change-recorded", { env, timeoutMs: 180_000 });
    expect(await site.withDatabase(readState)).toMatchObject({
      changes: 1,
      matchPending: 1,
      unreported: 0,
      matches: 0,
      deliveries: 0,
      reviews: 1,
    });

    await runUntilDone(site, async (database) => (await readState(database)).sent >= 1, {
      env,
      what: "law alert sent",
    });
    expect(await site.withDatabase(readState)).toEqual({
      changes: 1,
      matchPending: 0,
      unreported: 0,
      matches: 1,
      deliveries: 1,
      sent: 1,
      lawAlerts: 1,
      reviews: 1,
      reviewAlerts: 1,
      reviewMails: 1,
    });
    // The change is article 28's new wording by the act.
    const [change] = await site.withDatabase((database) =>
      database.rows<{ norm_id: string; block_ids: string[] }>(
        sql`select norm_id, block_ids from law_changes where kind = 'consolidated'`,
      ),
    );
    expect(change?.norm_id).toBe("BOE-A-2018-16673");
    expect(change?.block_ids).toContain("a28");
    const audit = await auditVerify(site);
    expect(audit.code, audit.output).toBe(0);
  }, 900_000);
});
