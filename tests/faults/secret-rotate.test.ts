/**
 * `npm run platform -- secret:rotate` on the embedded database of a temporary DATA_DIR: under a new
 * AUTH_SECRET every audit head is "not signed by this server" until the rotation re-signs them
 * (after verifying them under the old secret); TOTP secrets, backup codes and SSO client secrets
 * are re-encrypted, sessions are ended, and each organisation's trail records it. A wrong old
 * secret changes nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { run as auditVerify } from "../../scripts/platform/audit-verify.ts";
import { run as rotate } from "../../scripts/platform/secret-rotate.ts";
import { setUpEvidenceStory } from "../support/evidence-fixtures.ts";

const oldSecret = "old-auth-secret-0123456789abcdef-old-0123";
const newSecret = "new-auth-secret-0123456789abcdef-new-4567";
const totp = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const codes = JSON.stringify(["aaaa-bbbb", "cccc-dddd"]);

describe("AUTH_SECRET rotation", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "faults-rotate-"));
  const saved = { ...process.env };
  let out = "";
  let err = "";
  let userId = "";

  const withDatabase = async <T>(use: (database: Database) => Promise<T>): Promise<T> => {
    const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
    try {
      return await use(database);
    } finally {
      await database.close();
    }
  };
  const signatures = () =>
    withDatabase((database) =>
      database.rows<{ signature: string }>(sql`select signature from audit_heads order by organization_id`),
    );

  beforeAll(async () => {
    Object.assign(process.env, { DATA_DIR: dataDir, SITE_URL: "http://127.0.0.1" });
    delete process.env.DATABASE_URL;
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      err += String(chunk);
      return true;
    });
    await withDatabase(async (database) => {
      await migrate(database, defaultMigrationsDir);
      setAuditSecret(oldSecret);
      const story = await setUpEvidenceStory(database);
      userId = story.bea.userId;
      // Bea's second factor and session, an SSO provider's client secret, as better-auth stores them.
      await database.rows(sql`insert into auth_two_factor (id, secret, backup_codes, user_id, verified)
        values ('tf-bea', ${await symmetricEncrypt({ key: oldSecret, data: totp })},
          ${await symmetricEncrypt({ key: oldSecret, data: codes })}, ${userId}, true)`);
      await database.rows(sql`insert into auth_session (id, token, user_id, expires_at, created_at, updated_at)
        values ('s-bea', 'token-bea', ${userId}, now() + interval '1 day', now(), now())`);
      await database.rows(sql`insert into sso_provider (id, organization_id, kind, name, oidc_client_secret)
        values ('idp-a', ${story.ana.organizationId}, 'oidc', 'IdP', ${await symmetricEncrypt({ key: oldSecret, data: "client-secret" })})`);
    });
  });
  afterAll(() => {
    vi.restoreAllMocks();
    process.env = saved;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("under a new secret alone, every chain is reported as not signed by this server", async () => {
    process.env.AUTH_SECRET = newSecret;
    expect(await auditVerify([])).toBe(1);
    expect(out).toContain("BROKEN");
    process.env.AUTH_SECRET = oldSecret;
    out = "";
    expect(await auditVerify([])).toBe(0);
    expect(out).toContain("chain(s) valid");
  });

  it("refuses a wrong old secret or a missing new one, and changes nothing", async () => {
    const before = await signatures();
    process.env.AUTH_SECRET = newSecret;
    process.env.OLD_AUTH_SECRET = "wrong-secret-0123456789abcdef-0123456789";
    expect(await rotate([])).toBe(1);
    expect(err).toContain("Nothing was changed");
    expect(err).toContain("BROKEN");
    process.env.OLD_AUTH_SECRET = newSecret;
    expect(await rotate([])).toBe(2);
    expect(err).toContain("AUTH_SECRET is still the old secret");
    expect(await signatures()).toEqual(before);
  });

  it("re-signs the heads, re-encrypts the second factors and SSO secrets, ends the sessions", async () => {
    process.env.AUTH_SECRET = newSecret;
    process.env.OLD_AUTH_SECRET = oldSecret;
    out = "";
    expect(await rotate([])).toBe(0);
    expect(out).toMatch(/1 audit head\(s\) and 0 anchor\(s\) re-signed, 1 second factor\(s\) and 1 SSO/);
    expect(out).toContain("1 session(s) ended");

    out = "";
    expect(await auditVerify([])).toBe(0);
    expect(out).toContain("all 2 chain(s) valid");
    await withDatabase(async (database) => {
      const [factor] = await database.rows<{ secret: string; backup_codes: string }>(
        sql`select secret, backup_codes from auth_two_factor where id = 'tf-bea'`,
      );
      expect(await symmetricDecrypt({ key: newSecret, data: factor?.secret ?? "" })).toBe(totp);
      expect(await symmetricDecrypt({ key: newSecret, data: factor?.backup_codes ?? "" })).toBe(codes);
      const [idp] = await database.rows<{ oidc_client_secret: string }>(
        sql`select oidc_client_secret from sso_provider where id = 'idp-a'`,
      );
      expect(await symmetricDecrypt({ key: newSecret, data: idp?.oidc_client_secret ?? "" })).toBe("client-secret");
      expect(await database.rows(sql`select id from auth_session`)).toEqual([]);
      const rotated = await database.rows<{ organization_id: string; detail: { sessionsEnded: number } }>(
        sql`select organization_id, detail from audit_events where action = 'auth.secret_rotated' order by organization_id`,
      );
      expect(rotated.map((row) => row.detail.sessionsEnded).sort()).toEqual([0, 1]);
    });
    // The old secret no longer verifies anything.
    process.env.AUTH_SECRET = oldSecret;
    expect(await auditVerify([])).toBe(1);
  });
});
