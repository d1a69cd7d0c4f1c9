/** npm run platform -- alerts:match <documentId> on the embedded database of a temporary DATA_DIR. */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { run as alertsMatch } from "../../scripts/platform/alerts-match.ts";
import { insertStoredDocument } from "../support/alerts-fixtures.ts";

describe("alerts:match", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "alerts-command-"));
  const saved = { ...process.env };
  let out = "";
  let err = "";
  let documentId = "";
  beforeAll(async () => {
    process.env.DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
    await migrate(database, defaultMigrationsDir);
    await database.rows(sql`insert into auth_user (id, name, email) values ('u1', 'Ana', 'ana@example.com')`);
    await database.rows(sql`
      insert into alert_profiles (id, organization_id, user_id, name, areas) values (${randomUUID()}, 'org', 'u1', 'AML', '{aml}')`);
    documentId = await insertStoredDocument(database, { areas: ["aml"] });
    await database.close();
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      err += String(chunk);
      return true;
    });
  }, 60_000);
  afterAll(() => {
    vi.restoreAllMocks();
    process.env = saved;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("matches a stored document once (the outbox gets its delivery), names unknown ids and bad arguments", async () => {
    expect(await alertsMatch([documentId, "--json"])).toBe(0);
    expect(JSON.parse(out.trim().split("\n").at(-1) ?? "{}")).toEqual({
      candidates: 1,
      matched: 1,
      newMatches: 1,
      deliveries: 1,
    });
    out = "";
    expect(await alertsMatch([documentId])).toBe(0);
    expect(out).toContain("1 matched (0 new), 0 deliveries queued");
    expect(await alertsMatch([randomUUID()])).toBe(1);
    expect(err).toContain("no document");
    expect(await alertsMatch(["not-an-id"])).toBe(2);
    expect(await alertsMatch([])).toBe(2);
  }, 60_000);
});
