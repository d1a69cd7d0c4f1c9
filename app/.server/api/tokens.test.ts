import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureMember } from "../../../tests/support/api-tokens.ts";
import { openMigratedDatabase } from "../../../tests/support/platform-db.ts";
import { listAuditEvents } from "../audit/query.ts";
import type { Database } from "../db/client.ts";
import { apiTokens } from "../db/schema/api.ts";
import { authenticateToken, createApiToken, hashApiToken, listApiTokens, revokeApiToken } from "./tokens.ts";

let database: Database;
const admin = { id: "user-admin", email: "admin@example.com" };

beforeAll(async () => {
  database = await openMigratedDatabase();
  for (const organizationId of ["org-a", "org-b"])
    await ensureMember(database, { organizationId, userId: admin.id, email: admin.email });
}, 120_000);
afterAll(async () => {
  await database?.close();
});

describe("API tokens", () => {
  it("are shown once, stored as SHA-256 only, and authenticate with Bearer", async () => {
    const { id, token } = await createApiToken(database.db, {
      organizationId: "org-a",
      name: "CI export",
      scope: "admin",
      createdBy: admin.id,
      audit: { actor: admin, ip: "198.51.100.4", userAgent: "test" },
    });
    expect(token).toMatch(/^vn_[A-Za-z0-9_-]{43}$/);
    const [row] = await database.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(row?.tokenHash).toBe(hashApiToken(token));
    expect(JSON.stringify(row)).not.toContain(token.slice(3));
    const listed = await listApiTokens(database.db, "org-a");
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id, name: "CI export", scope: "admin", prefix: token.slice(0, 10) });
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(await authenticateToken(database.db, `Bearer ${token}`)).toEqual({
      tokenId: id,
      organizationId: "org-a",
      scope: "admin",
      createdBy: admin.id,
      createdByEmail: admin.email,
    });
    const [used] = await database.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
    const events = await listAuditEvents(database.db, "org-a", { action: "token.created" });
    expect(events.items.map((e) => e.object)).toEqual([{ type: "api_token", id }]);
  });

  it("refuses unknown, malformed, revoked and expired tokens", async () => {
    const { token: other } = await createApiToken(database.db, {
      organizationId: "org-b",
      name: "reader",
      scope: "read",
      createdBy: admin.id,
    });
    expect(await authenticateToken(database.db, null)).toBeNull();
    expect(await authenticateToken(database.db, "Bearer nonsense")).toBeNull();
    // One character changed (never to itself: a token ending in "A" would otherwise pass).
    const altered = `${other.slice(0, -1)}${other.endsWith("A") ? "B" : "A"}`;
    expect(await authenticateToken(database.db, `Bearer ${altered}`)).toBeNull();
    expect((await authenticateToken(database.db, other))?.scope).toBe("read");

    const { id, token } = await createApiToken(database.db, {
      organizationId: "org-b",
      name: "to revoke",
      scope: "admin",
      createdBy: admin.id,
    });
    // Another organisation cannot revoke it.
    expect(await revokeApiToken(database.db, "org-a", id)).toBe(false);
    expect(await authenticateToken(database.db, `Bearer ${token}`)).not.toBeNull();
    expect(await revokeApiToken(database.db, "org-b", id, { actor: admin })).toBe(true);
    expect(await revokeApiToken(database.db, "org-b", id)).toBe(false);
    expect(await authenticateToken(database.db, `Bearer ${token}`)).toBeNull();
    expect((await listAuditEvents(database.db, "org-b", { action: "token.revoked" })).items).toHaveLength(1);

    const expiring = await createApiToken(database.db, {
      organizationId: "org-b",
      name: "short-lived",
      scope: "read",
      createdBy: admin.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(await authenticateToken(database.db, `Bearer ${expiring.token}`)).not.toBeNull();
    await database.db
      .update(apiTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiTokens.id, expiring.id));
    expect(await authenticateToken(database.db, `Bearer ${expiring.token}`)).toBeNull();
  });

  it("validates name and scope", async () => {
    await expect(
      createApiToken(database.db, { organizationId: "org-a", name: "  ", scope: "read", createdBy: admin.id }),
    ).rejects.toThrow(/name/);
    await expect(
      createApiToken(database.db, {
        organizationId: "org-a",
        name: "x",
        scope: "root" as "read",
        createdBy: admin.id,
      }),
    ).rejects.toThrow(/scope/);
  });
});
