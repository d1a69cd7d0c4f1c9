/**
 * The audit chain under a scripted day of activity: several organisations, concurrent writers
 * (real parallel transactions on PostgreSQL), then tampering, retention and the operator command.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiToken, revokeApiToken } from "../../app/.server/api/tokens.ts";
import { signAnchor } from "../../app/.server/audit/head.ts";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import { recordAudit } from "../../app/.server/audit/record.ts";
import { purgeAuditEvents } from "../../app/.server/audit/retention.ts";
import { setAuditRetentionDays, verifyAuditChain } from "../../app/.server/audit/verify.ts";
import { verifyAllAuditChains } from "../../app/.server/audit/verify-all.ts";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { databaseTargets } from "../support/postgres.ts";

const projectRoot = path.resolve(import.meta.dirname, "../..");
const auditSecret = "audit-chain-test-secret-0123456789abcdef";
// The integration files of a worker share their modules (vitest.config.ts, isolate: false): a file
// that started services before this one set the process's audit secret and retention days (a
// whole run once failed four tests here that pass alone). Each test starts from this file's own.
beforeEach(() => {
  setAuditSecret(auditSecret);
  setAuditRetentionDays(undefined);
});
const organizations = ["org-north", "org-south", "org-east"];
const actions = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "document.read",
  "note.created",
  "member.invited",
  "mfa.enrolled",
];
const dayStart = Date.UTC(2026, 9, 5, 6, 0, 0);

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function runAuditVerify(
  databaseUrl: string | undefined,
  dataDir = "/tmp/unused-audit",
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(projectRoot, "scripts/platform.ts"), "audit:verify"], {
      cwd: projectRoot,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: "silent",
        DATA_DIR: dataDir,
        // The server's secret: the heads and anchors were signed with it (decision 0084).
        AUTH_SECRET: auditSecret,
        AUDIT_RETENTION_DAYS: "30",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout }));
  });
}

for (const target of databaseTargets()) {
  describe(`audit chain on ${target.name}`, () => {
    let database: Database;
    let url: string | undefined;
    const written = new Map<string, number>(organizations.map((org) => [org, 0]));

    beforeAll(async () => {
      url = await target.create();
      database = await openMigratedDatabase(url);
    });
    afterAll(async () => {
      await database?.close();
      await target.cleanup();
    });

    it("verifies after a scripted day with concurrent writers", async () => {
      const writers = 8;
      const perWriter = 40;
      await Promise.all(
        Array.from({ length: writers }, async (_, writer) => {
          const next = random(writer + 1);
          for (let i = 0; i < perWriter; i++) {
            const org = organizations[Math.floor(next() * organizations.length)] ?? "org-north";
            // The day advances for every writer alike, a few minutes of jitter between them.
            const minute = Math.floor((i * 14 * 60) / perWriter + next() * 5);
            const at = new Date(dayStart + minute * 60_000 + writer);
            const user = { id: `${org}-user-${Math.floor(next() * 5)}`, email: `user${writer}@${org}.example` };
            if (i % 10 === 9) {
              // A change and its event in one transaction, as the platform writes them.
              await database.db.transaction(async (tx) => {
                const { id } = await createApiToken(tx, {
                  organizationId: org,
                  name: `token ${writer}-${i}`,
                  scope: "read",
                  createdBy: user.id,
                  audit: { actor: user, ip: `10.0.${writer}.${i}`, userAgent: "script" },
                });
                await revokeApiToken(tx, org, id, { actor: user });
              });
              written.set(org, (written.get(org) ?? 0) + 2);
            } else {
              await recordAudit(database.db, {
                organizationId: org,
                actor: user,
                action: actions[Math.floor(next() * actions.length)] ?? "auth.sign_in",
                object: { type: "document", id: `doc-${Math.floor(next() * 50)}` },
                ip: `192.0.2.${Math.floor(next() * 250)}`,
                userAgent: `Agent/${writer}`,
                detail: { writer, i, nested: { z: 1, a: [1, "two", null] } },
                at,
              });
              written.set(org, (written.get(org) ?? 0) + 1);
            }
          }
        }),
      );
      const results = await verifyAllAuditChains(database.db);
      expect(results.map((r) => r.organizationId)).toEqual([...organizations].sort());
      for (const result of results) {
        expect(result).toMatchObject({ valid: true, firstBroken: null, events: written.get(result.organizationId) });
      }
      const total = [...written.values()].reduce((a, b) => a + b, 0);
      expect(total).toBe(writers * perWriter + (writers * perWriter) / 10);
      // No fork: seq runs 1..n without gaps or repeats in every organisation.
      for (const org of organizations) {
        const rows = await database.rows<{ seq: string | number }>(
          sql`select seq from audit_events where organization_id = ${org} order by seq`,
        );
        expect(rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
      }
    });

    it("names exactly the row changed directly in the database", async () => {
      const org = "org-south";
      const page = await listAuditEvents(database.db, org, { limit: 1000 });
      const victim = page.items[Math.floor(page.items.length / 2)];
      if (!victim) throw new Error("no events");
      // The application cannot: the trigger refuses.
      await expect(
        database.db.execute(sql`update audit_events set action = 'x.y' where id = ${victim.id}`),
      ).rejects.toThrow();
      if (url) {
        // A superuser bypassing triggers, as someone covering their tracks would.
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query("set session_replication_role = replica");
        await client.query("update audit_events set object_id = 'doc-hidden' where id = $1", [victim.id]);
        await client.end();
      } else {
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`alter table audit_events disable trigger audit_events_append_only`);
          await tx.execute(sql`update audit_events set object_id = 'doc-hidden' where id = ${victim.id}`);
          await tx.execute(sql`alter table audit_events enable trigger audit_events_append_only`);
        });
      }
      expect(await verifyAuditChain(database.db, org)).toEqual({
        valid: false,
        events: written.get(org),
        firstBroken: victim.id,
        reason: "an event does not chain (changed, inserted or deleted)",
      });
      for (const other of organizations.filter((o) => o !== org)) {
        expect((await verifyAuditChain(database.db, other)).valid).toBe(true);
      }
      if (url) {
        const { code, stdout } = await runAuditVerify(url);
        expect(code).toBe(1);
        expect(stdout).toContain(`BROKEN  ${org}  events=${written.get(org)}  firstBroken=${victim.id}`);
        expect(stdout).toMatch(/valid +org-north {2}events=\d+ {2}firstBroken=-/);
      }
    });

    it("stays verifiable after the retention purge", async () => {
      const org = "org-north";
      const before = (await verifyAuditChain(database.db, org)).events;
      // Cut the scripted day at noon: the morning goes, the afternoon stays.
      const now = new Date(dayStart + 6 * 3_600_000 + 30 * 86_400_000);
      const cutoff = now.getTime() - 30 * 86_400_000;
      const young = async () =>
        (await listAuditEvents(database.db, org, { limit: 1000 })).items.filter((e) => e.at.getTime() >= cutoff).length;
      const youngBefore = await young();
      // What should go: the chain's longest prefix of events older than the cutoff (an old event
      // written after a young one stays until the young one goes, or the chain would break).
      const bySeq = (await listAuditEvents(database.db, org, { limit: 1000 })).items.reverse();
      const firstYoung = bySeq.findIndex((e) => e.at.getTime() >= cutoff);
      const expectedPurge = firstYoung < 0 ? bySeq.length : firstYoung;
      expect(expectedPurge).toBeGreaterThan(0);
      const result = await purgeAuditEvents(database.db, 30, now);
      expect(result.events).toBeGreaterThan(0);
      const after = await verifyAuditChain(database.db, org);
      expect(after.valid).toBe(true);
      expect(after.events).toBeGreaterThan(0);
      expect(before - after.events).toBe(expectedPurge);
      expect(await young()).toBe(youngBefore);
      await recordAudit(database.db, { organizationId: org, actor: null, action: "audit.purged", object: null });
      expect((await verifyAuditChain(database.db, org)).valid).toBe(true);
      if (url) {
        const { stdout } = await runAuditVerify(url);
        expect(stdout).toMatch(/valid +org-north/);
      }
    });

    /** Runs SQL as the application's own role, the append-only trigger switched off (it can). */
    async function asDatabaseRole(statements: ReturnType<typeof sql>[]) {
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`alter table audit_events disable trigger audit_events_append_only`);
        for (const statement of statements) await tx.execute(statement);
        await tx.execute(sql`alter table audit_events enable trigger audit_events_append_only`);
      });
    }

    async function writeEvents(org: string, n: number, at?: (i: number) => Date) {
      const events = [];
      for (let i = 0; i < n; i++) {
        events.push(
          await recordAudit(database.db, {
            organizationId: org,
            actor: { id: "u1", email: "u1@example.com" },
            action: "document.read",
            object: { type: "document", id: `doc-${i}` },
            ...(at ? { at: at(i) } : {}),
          }),
        );
      }
      return events;
    }

    it("reports the newest events deleted (issue 22, finding 8), also after more events are written", async () => {
      const org = "org-truncated";
      const events = await writeEvents(org, 30);
      expect((await verifyAuditChain(database.db, org)).valid).toBe(true);
      await asDatabaseRole([sql`delete from audit_events where organization_id = ${org} and seq > 25`]);
      const verdict = await verifyAuditChain(database.db, org);
      expect(verdict.valid).toBe(false);
      expect(verdict).toMatchObject({
        events: 25,
        firstBroken: null,
        reason: "the newest events are missing: the chain ends at seq 25, its signed head is seq 30",
      });
      // The next event follows the signed head, so the gap stays visible.
      const next = await recordAudit(database.db, {
        organizationId: org,
        actor: null,
        action: "auth.sign_in",
        object: null,
      });
      expect(next.seq).toBe(31);
      expect(await verifyAuditChain(database.db, org)).toMatchObject({ valid: false, firstBroken: next.id });
      // Rewriting the head row to the shorter chain without AUTH_SECRET does not help.
      await asDatabaseRole([
        sql`delete from audit_events where organization_id = ${org} and seq > 25`,
        sql`update audit_heads set seq = 25, hash = ${events[24]?.hash ?? ""} where organization_id = ${org}`,
      ]);
      expect(await verifyAuditChain(database.db, org)).toMatchObject({
        valid: false,
        reason: "the head (seq 25) is not signed by this server",
      });
      await asDatabaseRole([sql`delete from audit_heads where organization_id = ${org}`]);
      expect(await verifyAuditChain(database.db, org)).toMatchObject({ valid: false, reason: "no signed head" });
      if (url) {
        const { code, stdout } = await runAuditVerify(url);
        expect(code).toBe(1);
        expect(stdout).toContain(`BROKEN  ${org}  events=25  firstBroken=-  reason: no signed head`);
      }
    });

    it("reports a forged purge anchor: the oldest 20 deleted and an anchor row written to match", async () => {
      const org = "org-forged-anchor";
      const events = await writeEvents(org, 40, (i) => new Date(Date.now() - (400 - i) * 86_400_000));
      const twentieth = events[19];
      if (!twentieth) throw new Error("no events");
      await asDatabaseRole([
        sql`delete from audit_events where organization_id = ${org} and seq <= 20`,
        sql`insert into audit_anchors (organization_id, seq, hash, at, purged_events)
            values (${org}, 20, ${twentieth.hash}, ${twentieth.at}, 20)`,
      ]);
      const verdict = await verifyAuditChain(database.db, org, { retentionDays: 30 });
      expect(verdict.valid).toBe(false);
      expect(verdict.reason).toBe("the purge anchor (seq 20) is not signed by this server: a forged purge");
      if (url) {
        const { code, stdout } = await runAuditVerify(url);
        expect(code).toBe(1);
        expect(stdout).toContain(
          `BROKEN  ${org}  events=20  firstBroken=-  reason: the purge anchor (seq 20) is not signed`,
        );
      }
    });

    it("refuses a signed anchor newer than the retention cut-off", async () => {
      const org = "org-young-anchor";
      const events = await writeEvents(org, 10);
      const fifth = events[4];
      if (!fifth) throw new Error("no events");
      // Signed (as a purge with a wrong clock or a wrong AUDIT_RETENTION_DAYS would), but too young.
      await asDatabaseRole([
        sql`delete from audit_events where organization_id = ${org} and seq <= 5`,
        sql`insert into audit_anchors (organization_id, seq, hash, at, purged_events, signature)
            values (${org}, 5, ${fifth.hash}, ${fifth.at}, 5, ${signAnchor(org, 5, fifth.hash, fifth.at)})`,
      ]);
      expect(await verifyAuditChain(database.db, org)).toMatchObject({ valid: true });
      expect(await verifyAuditChain(database.db, org, { retentionDays: 30 })).toMatchObject({
        valid: false,
        reason: "the purge anchor (seq 5) is newer than the retention cut-off (30 days)",
      });
    });
  });
}

describe("npm run platform -- audit:verify on the embedded database", () => {
  it("reads DATA_DIR/db, exits 0 on sound chains and 1 naming the changed event", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "audit-verify-"));
    try {
      const open = () => openDatabase({ pgliteDir: path.join(dataDir, "db") });
      let database = await open();
      await migrate(database, defaultMigrationsDir);
      const events = [];
      for (let i = 0; i < 4; i++) {
        events.push(
          await recordAudit(database.db, {
            organizationId: "org-lite",
            actor: null,
            action: "auth.sign_in",
            object: null,
          }),
        );
      }
      await database.close();
      const sound = await runAuditVerify(undefined, dataDir);
      expect(sound.code).toBe(0);
      expect(sound.stdout).toContain("valid   org-lite  events=4  firstBroken=-");
      database = await open();
      const victim = events[1];
      if (!victim) throw new Error("no event");
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`alter table audit_events disable trigger audit_events_append_only`);
        await tx.execute(sql`update audit_events set action = 'auth.sign_out' where id = ${victim.id}`);
        await tx.execute(sql`alter table audit_events enable trigger audit_events_append_only`);
      });
      await database.close();
      const broken = await runAuditVerify(undefined, dataDir);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toContain(`BROKEN  org-lite  events=4  firstBroken=${victim.id}`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Two cold PGlite opens and two CLI runs (each migrates a fresh PGlite): over a minute each
    // on a loaded two-core machine.
  }, 300_000);
});
