/**
 * The fan-out of 10,000 deliveries killed half-way, on the embedded database and (TEST_DATABASE_URL
 * set) on PostgreSQL: one document handed to the pipeline at start matches a profile of a group of
 * 10,000 members, 10,000 in-app deliveries; the server kills itself when it has claimed the 100th
 * batch (FAULT_AT=deliveries.claimed@100: leased to it, not sent). After the restart (the dead
 * process's leases aged instead of waited for): exactly 10,000 deliveries sent, one alert per member,
 * one per recipient and channel, the audit chains valid. On PostgreSQL also: two instances, one
 * killed mid-fan-out while the other carries on; and PostgreSQL itself restarted mid-fan-out (a
 * cluster of the test's own, PG_BIN).
 */
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import { insertDocument } from "../support/evidence-fixtures.ts";
import { databaseTargets, startOwnCluster } from "../support/postgres.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import {
  auditVerify,
  exitSignal,
  expireLeases,
  populateOrganisation,
  prepareSite,
  runUntilKilled,
  type Site,
  startHealthy,
  tail,
  waitFor,
} from "./harness.ts";

const members = 10_000;

/** The site's organisation, its group's profile (every document, no mail) and one pending document. */
async function prepareFanOut(database: Database): Promise<void> {
  await populateOrganisation(database, { organizationId: "org-fan", members, team: "team-all" });
  await database.rows(sql`insert into alert_profiles (id, organization_id, group_id, name, email_mode)
    values (gen_random_uuid(), 'org-fan', 'team-all', 'Todo el equipo', 'off')`);
  const documentId = await insertDocument(database, {
    source: "boe",
    sourceId: "BOE-A-2026-9001",
    title: "Circular de prueba para diez mil",
    publishedOn: "2026-12-01",
    areaIds: ["banking"],
  });
  // Stored by an ingestion that stopped before handing it over: the start hands it over (decision 0145).
  await database.rows(sql`update documents set pipeline_pending = 'new' where id = ${documentId}::uuid`);
}

interface FanOutState {
  deliveries: number;
  distinct: number;
  sent: number;
  sending: number;
  alerts: number;
  alertUsers: number;
}

const readState = (database: Database) =>
  database
    .rows<FanOutState>(sql`select
      (select count(*)::int from deliveries where channel = 'inapp') as deliveries,
      (select count(distinct (match_key, channel, recipient))::int from deliveries where channel = 'inapp') as distinct,
      (select count(*)::int from deliveries where channel = 'inapp' and status = 'sent') as sent,
      (select count(*)::int from deliveries where channel = 'inapp' and status = 'sending') as sending,
      (select count(*)::int from alerts) as alerts,
      (select count(distinct user_id)::int from alerts) as "alertUsers"`)
    .then((rows) => rows[0] as FanOutState);

const complete: FanOutState = {
  deliveries: members,
  distinct: members,
  sent: members,
  sending: 0,
  alerts: members,
  alertUsers: members,
};

/**
 * Runs the server until every delivery is sent. PostgreSQL: watched while it runs. The embedded
 * database takes one process: the server is stopped (SIGTERM: it finishes its current batch) every
 * few seconds to look, and started again while deliveries remain (each start another restart).
 */
async function untilSent(site: Site): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const server = await startHealthy(site);
    try {
      if (site.databaseUrl) {
        await waitFor(
          () => site.withDatabase(readState),
          (state) => state.sent === members,
          120_000,
          "all sent",
        );
      } else await new Promise((resolve) => setTimeout(resolve, 8_000));
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const state = await site.withDatabase(readState);
    if (state.sent === members) return;
    if (Date.now() > deadline) throw new Error(`deliveries not all sent: ${JSON.stringify(state)}`);
  }
}

describe.each(databaseTargets())("the fan-out of 10,000 deliveries killed half-way ($name)", (target) => {
  const sites: Site[] = [];
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop("SIGKILL");
    await target.cleanup();
    for (const site of sites) site.remove();
  });

  // PostgreSQL: the same kill, with a second instance carrying on (below).
  it.runIf(target.name === "pglite")(
    "ends with exactly 10,000 deliveries sent, one alert per member, after a restart",
    async () => {
      const site = await prepareSite(target, "fanout");
      sites.push(site);
      await site.withDatabase(prepareFanOut);

      await runUntilKilled(site, "deliveries.claimed@100");
      const half = await site.withDatabase(async (database) => {
        const state = await readState(database);
        await expireLeases(database, "deliveries");
        return state;
      });
      // Matched once (all 10,000 rows stored in the match's transaction), 99 batches of 32 sent, the
      // 100th leased to the dead process.
      expect(half).toMatchObject({ deliveries: members, distinct: members, sent: 99 * 32, sending: 32 });
      expect(half.alerts).toBe(99 * 32);

      await untilSent(site);
      expect(await site.withDatabase(readState)).toEqual(complete);
      const audit = await auditVerify(site);
      expect(audit.code, audit.output).toBe(0);
    },
    600_000,
  );

  it.runIf(target.name === "postgres")(
    "two instances: one killed mid-fan-out, the other carries on and takes its batch after the lease",
    async () => {
      const site = await prepareSite(target, "fanout-two");
      sites.push(site);
      await site.withDatabase(prepareFanOut);
      // Both start together; the one with FAULT_AT dies at its 40th batch, the other goes on.
      const [doomed, survivor] = await Promise.all([
        startServer({
          dataDir: site.dataDir,
          env: site.env({ FAULT_AT: "deliveries.claimed@40" }),
          waitUntilHealthy: false,
        }),
        startServer({ env: site.env() }),
      ]);
      servers.push(doomed, survivor);
      expect(await exitSignal(doomed, 120_000)).toBe("SIGKILL");
      // The survivor sends everything but the dead one's leased batch.
      const stuck = await waitFor(
        () => site.withDatabase(readState),
        (state) => state.sent + state.sending === members && state.sending > 0,
        120_000,
        "the survivor's sends",
      );
      expect(stuck.sending).toBe(32);
      expect(survivor.child.exitCode).toBeNull();
      await site.withDatabase((database) => expireLeases(database, "deliveries"));
      await waitFor(
        () => site.withDatabase(readState),
        (state) => state.sent === members,
        60_000,
        "the dead batch",
      );
      expect(await survivor.stop()).toBe(0);
      expect(await site.withDatabase(readState)).toEqual(complete);
      const audit = await auditVerify(site);
      expect(audit.code, audit.output).toBe(0);
    },
    600_000,
  );
});

const pgBin = process.env.PG_BIN;
describe.runIf(pgBin)("PostgreSQL restarted mid-fan-out", () => {
  it("the server rides it out: exactly 10,000 deliveries sent, one alert per member", async () => {
    // A cluster of this test's own: restarting the shared one would cut every other file's connections.
    const cluster = await startOwnCluster(pgBin as string);
    const own = { name: "postgres" as const, create: async () => cluster.url, cleanup: async () => {} };
    const site = await prepareSite(own, "fanout-pg-restart");
    let server: RunningServer | undefined;
    try {
      await site.withDatabase(prepareFanOut);
      server = await startServer({ dataDir: site.dataDir, env: site.env() });
      const running = server;
      await waitFor(
        () => site.withDatabase(readState),
        (state) => state.sent >= 1000,
        120_000,
        "sending begun",
      );
      cluster.restart();
      // The batch in flight when the connections dropped could not even be marked for a retry: it
      // waits for its lease (2 minutes), aged here once everything else is sent.
      const watch = () => site.withDatabase(readState).catch(() => undefined);
      await waitFor(
        watch,
        (state) => state?.sent === state?.deliveries || (state?.sent ?? 0) + (state?.sending ?? 0) === members,
        120_000,
        "sends after PostgreSQL's restart",
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${tail(running)}`);
      });
      await site.withDatabase((database) => expireLeases(database, "deliveries"));
      const after = await waitFor(watch, (state) => state?.sent === members, 60_000, "the batch cut short");
      expect(after).toEqual(complete);
      expect(running.child.exitCode).toBeNull();
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
      expect(await running.stop()).toBe(0);
      const audit = await auditVerify(site);
      expect(audit.code, audit.output).toBe(0);
    } finally {
      await server?.stop("SIGKILL");
      site.remove();
      cluster.stop();
    }
  }, 600_000);
});
