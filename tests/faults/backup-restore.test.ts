/**
 * `npm run platform -- backup` while the built server runs on the embedded database, then a change,
 * then `restore` with the server stopped: the restarted server serves the same documents, follows
 * (alert profiles), triage and obligations as at the backup, and `audit:verify` finds every chain
 * valid. The commands run in this process, as an operator's shell would run them, on the same
 * DATA_DIR and AUTH_SECRET as the server.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { run as auditVerify } from "../../scripts/platform/audit-verify.ts";
import { run as backup } from "../../scripts/platform/backup.ts";
import { run as restore } from "../../scripts/platform/restore.ts";
import { issueToken } from "../support/api-tokens.ts";
import { setUpEvidenceStory } from "../support/evidence-fixtures.ts";
import { type RunningServer, startServer } from "../support/server.ts";

const authSecret = "backup-test-auth-secret-0123456789abcdef";

describe("backup and restore of the embedded database", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "faults-backup-"));
  const backupFile = path.join(dataDir, "..", `${path.basename(dataDir)}.tar.gz`);
  const saved = { ...process.env };
  let out = "";
  let err = "";
  let token = "";
  let documentId = "";
  let server: RunningServer | undefined;

  const api = async (pathname: string, init: RequestInit = {}) => {
    const response = await fetch(`${server?.url}${pathname}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
    });
    expect(response.status, `${init.method ?? "GET"} ${pathname}`).toBeLessThan(300);
    return response.json() as Promise<Record<string, unknown> & unknown[]>;
  };
  /** What the server serves of the organisation's data (ids and states, not the changing bits). */
  const served = async () => ({
    documents: ((await api("/api/v1/documents?limit=100")).items as { id: string; title: string }[])
      .map((d) => `${d.id} ${d.title}`)
      .sort(),
    follows: await api("/api/v1/follows"),
    triage: await api(`/api/v1/documents/${documentId}/triage`),
    obligations: await api("/api/v1/obligations"),
    // Listing obligations is audited: the number of events grows with each look, validity must not.
    audit: (await api("/api/v1/audit/verify")).valid,
  });

  beforeAll(async () => {
    Object.assign(process.env, { DATA_DIR: dataDir, AUTH_SECRET: authSecret, SITE_URL: "http://127.0.0.1" });
    delete process.env.DATABASE_URL;
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      err += String(chunk);
      return true;
    });
    // The organisation's story (documents, alerts, triage, obligations, notes, audited) written as
    // the server would, with the server's secret, then the server started on it.
    const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
    await migrate(database, defaultMigrationsDir);
    setAuditSecret(authSecret);
    const story = await setUpEvidenceStory(database);
    const ana = story.ana;
    documentId = story.boeDocumentId;
    token = (await issueToken(database, { organizationId: ana.organizationId, scope: "admin", userId: ana.userId }))
      .token;
    await database.close();
    server = await startServer({ dataDir, env: { AUTH_SECRET: authSecret } });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    vi.restoreAllMocks();
    process.env = saved;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(backupFile, { force: true });
  });

  it("backs up through the running server, refuses other commands meanwhile, restores what was backed up", async () => {
    const before = await served();
    expect(before.documents.length).toBeGreaterThanOrEqual(2);
    expect(before.obligations).toHaveLength(2);
    expect((before.triage.triage as { status: string }).status).toBe("applies");
    expect(before.audit).toBe(true);

    expect(await backup(["--out", backupFile])).toBe(0);
    expect(out).toContain("taken by the running server");
    expect(existsSync(backupFile)).toBe(true);

    // A second process must not open the embedded database under the running server.
    await expect(auditVerify([])).rejects.toThrow(/a server is running on .*stop it first/);
    expect(await restore(["--from", backupFile])).toBe(1);
    expect(err).toContain("stop it, then restore");

    // Work after the backup: a triage decision (audited), which the restore takes back.
    await api(`/api/v1/documents/${documentId}/triage`, {
      method: "PUT",
      body: JSON.stringify({ status: "does_not_apply", rationale: "after the backup" }),
    });
    expect(((await api(`/api/v1/documents/${documentId}/triage`)).triage as { status: string }).status).toBe(
      "does_not_apply",
    );
    expect(await server?.stop()).toBe(0);

    expect(await restore(["--from", backupFile])).toBe(0);
    expect(out).toMatch(/Restored .* migrations recorded in it/);
    expect(readdirSync(dataDir).some((name) => name.startsWith("db.before-restore-"))).toBe(true);
    out = "";
    expect(await auditVerify([])).toBe(0);
    expect(out).toContain("valid");
    expect(out).not.toContain("BROKEN");

    server = await startServer({ dataDir, env: { AUTH_SECRET: authSecret } });
    expect(await served()).toEqual(before);
  });

  it("refuses a file that is not a backup and changes nothing", async () => {
    await server?.stop();
    const notBackup = path.join(dataDir, "not-a-backup.tar.gz");
    writeFileSync(notBackup, "plain text");
    const entries = readdirSync(dataDir).sort();
    err = "";
    expect(await restore(["--from", notBackup])).toBe(1);
    expect(err).toContain("not a backup of this product's embedded database");
    expect(err).toContain("Nothing was changed.");
    expect(readdirSync(dataDir).sort()).toEqual(entries);
  });
});
