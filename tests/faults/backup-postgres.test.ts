/**
 * The PostgreSQL backup docs/operations.md documents, run as written: `pg_dump --format=custom` of a
 * populated database, `pg_restore --no-owner` into an empty one, the built server started on it:
 * the same documents, follows, triage and obligations served, the audit chain valid, and
 * `audit:verify` valid. Skipped without TEST_DATABASE_URL (or without pg_dump on the PATH).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { run as auditVerify } from "../../scripts/platform/audit-verify.ts";
import { run as backup } from "../../scripts/platform/backup.ts";
import { issueToken } from "../support/api-tokens.ts";
import { setUpEvidenceStory } from "../support/evidence-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";
import { type RunningServer, startServer } from "../support/server.ts";

const authSecret = "pg-backup-test-auth-secret-0123456789abc";
const postgres = databaseTargets().find((target) => target.name === "postgres");
const hasPgDump = (() => {
  try {
    execFileSync("pg_dump", ["--version"]);
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!postgres || !hasPgDump)("pg_dump and pg_restore of the PostgreSQL database", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "faults-pgdump-"));
  const dump = path.join(dir, "vn.dump");
  const saved = { ...process.env };
  let out = "";
  let err = "";
  let source = "";
  let token = "";
  let documentId = "";
  let server: RunningServer | undefined;

  const served = async (url: string) => {
    const api = async (pathname: string) => {
      const response = await fetch(`${url}${pathname}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status, pathname).toBe(200);
      return response.json() as Promise<Record<string, unknown>>;
    };
    return {
      documents: ((await api("/api/v1/documents?limit=100")).items as { id: string }[]).map((d) => d.id).sort(),
      follows: await api("/api/v1/follows"),
      triage: ((await api(`/api/v1/documents/${documentId}/triage`)).triage as { status: string }).status,
      obligations: await api("/api/v1/obligations"),
      audit: (await api("/api/v1/audit/verify")).valid,
    };
  };

  beforeAll(async () => {
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      err += String(chunk);
      return true;
    });
    source = (await postgres?.create()) ?? "";
    const database = await openDatabase({ databaseUrl: source });
    await migrate(database, defaultMigrationsDir);
    setAuditSecret(authSecret);
    const story = await setUpEvidenceStory(database);
    documentId = story.boeDocumentId;
    token = (
      await issueToken(database, { organizationId: story.ana.organizationId, scope: "admin", userId: story.ana.userId })
    ).token;
    await database.close();
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    vi.restoreAllMocks();
    process.env = saved;
    await postgres?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("restores into an empty database what the server then serves as before, the chain valid", async () => {
    server = await startServer({ env: { DATABASE_URL: source, AUTH_SECRET: authSecret } });
    const before = await served(server.url);
    expect(before.obligations).toHaveLength(2);
    expect(before.audit).toBe(true);
    // The command points at PostgreSQL's own tools.
    Object.assign(process.env, { DATABASE_URL: source, AUTH_SECRET: authSecret, DATA_DIR: dir });
    expect(await backup([])).toBe(2);
    expect(err).toContain("pg_dump --format=custom");

    execFileSync("pg_dump", ["--format=custom", `--file=${dump}`, source]); // beside the running server
    await server.stop();
    const target = (await postgres?.create()) ?? "";
    execFileSync("pg_restore", ["--no-owner", `--dbname=${target}`, dump]);

    server = await startServer({ env: { DATABASE_URL: target, AUTH_SECRET: authSecret } });
    const after = await served(server.url);
    expect(after).toEqual(before);
    await server.stop();
    process.env.DATABASE_URL = target;
    out = "";
    expect(await auditVerify([])).toBe(0);
    expect(out).toContain("chain(s) valid");
  });
});
