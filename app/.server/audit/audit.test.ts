import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMigratedDatabase } from "../../../tests/support/platform-db.ts";
import type { Database } from "../db/client.ts";
import { auditEvents } from "../db/schema/audit.ts";
import { eventHash, genesisHash } from "./chain.ts";
import { hashIp } from "./ip-hash.ts";
import { auditEventsToCsv, auditEventToJson, listAuditEvents } from "./query.ts";
import { recordAudit } from "./record.ts";
import { purgeAuditEvents } from "./retention.ts";
import { verifyAuditChain } from "./verify.ts";

let database: Database;
const secret = "unit-test-secret-0123456789";
const alice = { id: "user-alice", email: "alice@example.com" };

beforeAll(async () => {
  database = await openMigratedDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("recordAudit", () => {
  it("chains events per organisation and hashes the IP with the organisation's key", async () => {
    const first = await recordAudit(
      database.db,
      {
        organizationId: "org-rec",
        actor: alice,
        action: "auth.sign_in",
        object: { type: "user", id: alice.id },
        ip: "203.0.113.9",
        userAgent: "UA/1",
      },
      { secret },
    );
    const second = await recordAudit(
      database.db,
      { organizationId: "org-rec", actor: null, action: "member.invited", object: null, detail: { role: "admin" } },
      { secret },
    );
    const other = await recordAudit(
      database.db,
      { organizationId: "org-rec-2", actor: alice, action: "auth.sign_in", object: null, ip: "203.0.113.9" },
      { secret },
    );
    expect(first.seq).toBe(1);
    expect(first.prevHash).toBe(genesisHash);
    expect(second.seq).toBe(2);
    expect(second.prevHash).toBe(first.hash);
    expect(other.seq).toBe(1);
    expect(first.hash).toBe(eventHash(genesisHash, first));
    expect(first.ipHash).toBe(hashIp("org-rec", "203.0.113.9", secret));
    expect(first.ipHash).not.toContain("203.0.113.9");
    expect(hashIp("org-rec-2", "203.0.113.9", secret)).not.toBe(first.ipHash);
    expect(await verifyAuditChain(database.db, "org-rec")).toEqual({
      valid: true,
      events: 2,
      firstBroken: null,
      reason: null,
    });
  });

  it("stores what it hashes even when a JavaScript caller leaves the email out", async () => {
    const loose = { id: "user-x" } as { id: string; email: string };
    await recordAudit(database.db, { organizationId: "org-loose", actor: loose, action: "auth.sign_in", object: null });
    expect(await verifyAuditChain(database.db, "org-loose")).toEqual({
      valid: true,
      events: 1,
      firstBroken: null,
      reason: null,
    });
  });

  it("refuses actions that are not noun.verb", async () => {
    await expect(
      recordAudit(database.db, { organizationId: "org-x", actor: null, action: "SignIn", object: null }),
    ).rejects.toThrow(/noun\.verb/);
  });

  it("writes nothing when the caller's transaction rolls back", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await recordAudit(tx, { organizationId: "org-rollback", actor: alice, action: "member.invited", object: null });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect((await listAuditEvents(database.db, "org-rollback")).items).toHaveLength(0);
  });

  it("keeps the table append-only: UPDATE and DELETE are refused", async () => {
    await recordAudit(database.db, { organizationId: "org-ro", actor: alice, action: "auth.sign_in", object: null });
    await expect(database.db.update(auditEvents).set({ action: "auth.sign_out" })).rejects.toThrow();
    await expect(database.db.delete(auditEvents)).rejects.toThrow();
    await expect(database.db.execute(sql`truncate audit_events`)).rejects.toThrow();
    expect((await listAuditEvents(database.db, "org-ro")).items).toHaveLength(1);
  });
});

describe("verifyAuditChain", () => {
  it("names exactly the changed row", async () => {
    const events = [];
    for (let i = 0; i < 8; i++) {
      events.push(
        await recordAudit(database.db, {
          organizationId: "org-tamper",
          actor: alice,
          action: "document.read",
          object: { type: "document", id: `doc-${i}` },
        }),
      );
    }
    expect((await verifyAuditChain(database.db, "org-tamper", { batchSize: 3 })).valid).toBe(true);
    const target = events[4];
    if (!target) throw new Error("no event");
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table audit_events disable trigger audit_events_append_only`);
      await tx.execute(sql`update audit_events set object_id = 'doc-other' where id = ${target.id}`);
      await tx.execute(sql`alter table audit_events enable trigger audit_events_append_only`);
    });
    expect(await verifyAuditChain(database.db, "org-tamper", { batchSize: 3 })).toEqual({
      valid: false,
      events: 8,
      firstBroken: target.id,
      reason: "an event does not chain (changed, inserted or deleted)",
    });
  });
});

describe("listAuditEvents and CSV", () => {
  it("filters, pages with a cursor and exports formula-safe CSV", async () => {
    const org = "org-list";
    const base = Date.parse("2026-03-01T10:00:00Z");
    for (let i = 0; i < 7; i++) {
      await recordAudit(database.db, {
        organizationId: org,
        actor: i % 2 === 0 ? alice : { id: "user-bob", email: "Bob@Example.com" },
        action: i % 3 === 0 ? "member.invited" : "auth.sign_in",
        object: { type: "user", id: `u${i}` },
        userAgent: i === 3 ? '=HYPERLINK("http://evil")' : "UA",
        at: new Date(base + i * 3_600_000),
      });
    }
    const page1 = await listAuditEvents(database.db, org, { limit: 3 });
    expect(page1.items.map((e) => e.seq)).toEqual([7, 6, 5]);
    expect(page1.nextCursor).toBeTypeOf("string");
    const page2 = await listAuditEvents(database.db, org, { limit: 3, cursor: page1.nextCursor ?? "" });
    expect(page2.items.map((e) => e.seq)).toEqual([4, 3, 2]);
    const page3 = await listAuditEvents(database.db, org, { limit: 3, cursor: page2.nextCursor ?? "" });
    expect(page3.items.map((e) => e.seq)).toEqual([1]);
    expect(page3.nextCursor).toBeNull();

    expect((await listAuditEvents(database.db, org, { actor: "bob@example.com" })).items).toHaveLength(3);
    expect((await listAuditEvents(database.db, org, { actor: "user-alice" })).items).toHaveLength(4);
    expect((await listAuditEvents(database.db, org, { action: "member.invited" })).items).toHaveLength(3);
    expect((await listAuditEvents(database.db, org, { action: "member.*" })).items).toHaveLength(3);
    expect((await listAuditEvents(database.db, org, { objectType: "user", objectId: "u2" })).items).toHaveLength(1);
    const window = await listAuditEvents(database.db, org, {
      from: new Date(base + 2 * 3_600_000),
      to: new Date(base + 4 * 3_600_000),
    });
    expect(window.items.map((e) => e.seq)).toEqual([4, 3]);
    expect((await listAuditEvents(database.db, "org-nobody")).items).toEqual([]);

    const all = (await listAuditEvents(database.db, org)).items;
    const json = auditEventToJson(all[0] ?? (undefined as never));
    expect(Object.keys(json).sort()).toEqual(
      ["id", "at", "actor", "action", "object", "ipHash", "userAgent", "hash", "prevHash"].sort(),
    );
    const csv = auditEventsToCsv(all);
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,at,actor_id,actor_email,action,object_type,object_id,ip_hash,user_agent,hash,prev_hash");
    expect(lines).toHaveLength(8);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv).not.toMatch(/,=HYPERLINK/);
  });
});

describe("purgeAuditEvents", () => {
  it("deletes old events and keeps the rest verifiable from the anchor", async () => {
    const org = "org-purge";
    const now = Date.parse("2026-06-01T00:00:00Z");
    for (let i = 0; i < 10; i++) {
      await recordAudit(database.db, {
        organizationId: org,
        actor: alice,
        action: "document.read",
        object: { type: "document", id: `d${i}` },
        at: new Date(now - (10 - i) * 86_400_000),
      });
    }
    const result = await purgeAuditEvents(database.db, 4, new Date(now));
    expect(result.events).toBeGreaterThanOrEqual(6);
    const left = await listAuditEvents(database.db, org);
    expect(left.items.map((e) => e.seq)).toEqual([10, 9, 8, 7]);
    expect(await verifyAuditChain(database.db, org)).toEqual({
      valid: true,
      events: 4,
      firstBroken: null,
      reason: null,
    });
    // New events chain on; a second purge moves the anchor again.
    await recordAudit(database.db, { organizationId: org, actor: alice, action: "auth.sign_in", object: null });
    await purgeAuditEvents(database.db, 2, new Date(now));
    expect(await verifyAuditChain(database.db, org)).toMatchObject({ valid: true, events: 3 });
    // Everything purged: the next event still chains onto the anchor.
    await purgeAuditEvents(database.db, 1, new Date(Date.now() + 30 * 86_400_000));
    expect(await verifyAuditChain(database.db, org)).toEqual({
      valid: true,
      events: 0,
      firstBroken: null,
      reason: null,
    });
    const next = await recordAudit(database.db, {
      organizationId: org,
      actor: alice,
      action: "auth.sign_in",
      object: null,
    });
    expect(next.seq).toBe(12);
    expect(await verifyAuditChain(database.db, org)).toEqual({
      valid: true,
      events: 1,
      firstBroken: null,
      reason: null,
    });
  });
});
