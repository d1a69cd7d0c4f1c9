/**
 * Crash points of a BOE day's ingestion, with the operator's `ingest` command on the embedded
 * database and (TEST_DATABASE_URL set) on PostgreSQL, the recorded day 2018-12-06 (55 documents) through the replay server. FAULT_AT
 * (app/.server/kernel/fault.ts) makes the process SIGKILL itself at the step: after a document is
 * stored but before it is matched (the day half ingested), and after it is matched but before its
 * hand-over is recorded. The next run must leave every document stored once, matched once against
 * the catch-all profile, with one in-app delivery each, and nothing pending.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { ensureMember } from "../support/api-tokens.ts";
import { databaseTargets } from "../support/postgres.ts";
import { projectRoot } from "../support/server.ts";

const day = "2018-12-06";
const listed = 55;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

describe.each(databaseTargets())("a BOE day's ingestion killed at each step ($name)", (target) => {
  let replay: ReplayServer;
  const roots: string[] = [];
  /** Each DATA_DIR's PostgreSQL database (none: the embedded one in DATA_DIR/db). */
  const urls = new Map<string, string | undefined>();
  beforeAll(async () => {
    replay = await startReplayServer();
  });
  afterAll(async () => {
    await replay?.close();
    await target.cleanup();
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  const ingest = (dataDir: string, faultAt?: string) =>
    new Promise<Run>((resolve) => {
      const child = spawn(process.execPath, ["scripts/platform.ts", "ingest", "--source", "boe", "--date", day], {
        cwd: projectRoot,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          ...(urls.get(dataDir) ? { DATABASE_URL: urls.get(dataDir) } : {}),
          LOG_LEVEL: "warn",
          BOE_API_URL: replay.url,
          FAULT_AT: faultAt ?? "",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    });

  async function withDatabase<T>(dataDir: string, use: (database: Database) => Promise<T>): Promise<T> {
    const database = await openDatabase({ databaseUrl: urls.get(dataDir), pgliteDir: path.join(dataDir, "db") });
    try {
      return await use(database);
    } finally {
      await database.close();
    }
  }

  /** A DATA_DIR with one organisation whose member has a profile without filters (every document). */
  async function prepared(): Promise<{ dataDir: string; profileId: string }> {
    const dataDir = mkdtempSync(path.join(tmpdir(), "faults-ingest-"));
    roots.push(dataDir);
    urls.set(dataDir, await target.create());
    const profileId = await withDatabase(dataDir, async (database) => {
      await migrate(database, defaultMigrationsDir);
      await ensureMember(database, { organizationId: "org-crash", userId: "user-crash", role: "admin" });
      const [row] = await database.rows<{
        id: string;
      }>(sql`insert into alert_profiles (id, organization_id, user_id, name, email_mode)
        values (gen_random_uuid(), 'org-crash', 'user-crash', 'Todo', 'off') returning id`);
      return row?.id ?? "";
    });
    return { dataDir, profileId };
  }

  async function state(dataDir: string, profileId: string) {
    return withDatabase(dataDir, async (database) => {
      const [row] = await database.rows<{
        documents: number;
        distinct_ids: number;
        pending: number;
        matches: number;
        matched_documents: number;
        deliveries: number;
        distinct_deliveries: number;
      }>(sql`select
          (select count(*)::int from documents) as documents,
          (select count(distinct source_id)::int from documents) as distinct_ids,
          (select count(*)::int from documents where pipeline_pending is not null) as pending,
          (select count(*)::int from alert_matches where profile_id = ${profileId}::uuid) as matches,
          (select count(distinct document_id)::int from alert_matches where profile_id = ${profileId}::uuid) as matched_documents,
          (select count(*)::int from deliveries where channel = 'inapp') as deliveries,
          (select count(distinct (match_key, channel, recipient))::int from deliveries where channel = 'inapp') as distinct_deliveries`);
      return row;
    });
  }

  /** The claims of the killed run expire (5 minutes in production): aged here instead of waited for. */
  const expireClaims = (dataDir: string) =>
    withDatabase(dataDir, (database) =>
      database.rows(sql`update source_fetches set claimed_at = now() - interval '1 hour' where done_at is null`),
    );

  const complete = { documents: listed, distinct_ids: listed, pending: 0, matches: listed, matched_documents: listed };

  it("killed after storing a document, before matching it: the next run matches it", async () => {
    const { dataDir, profileId } = await prepared();
    const killed = await ingest(dataDir, "document.stored@10");
    expect(killed.signal).toBe("SIGKILL");
    const half = await state(dataDir, profileId);
    expect(half?.documents).toBeGreaterThanOrEqual(10);
    expect(half?.documents).toBeLessThan(listed);
    expect(half?.pending).toBeGreaterThanOrEqual(1);

    await expireClaims(dataDir);
    const again = await ingest(dataDir);
    expect(again.code, again.stderr).toBe(0);
    expect(await state(dataDir, profileId)).toEqual({
      ...complete,
      deliveries: listed,
      distinct_deliveries: listed,
    });
  });

  it("killed after matching a document, before recording it: matched again, still once", async () => {
    const { dataDir, profileId } = await prepared();
    const killed = await ingest(dataDir, "document.handed-over@10");
    expect(killed.signal).toBe("SIGKILL");
    const half = await state(dataDir, profileId);
    expect(half?.pending).toBeGreaterThanOrEqual(1);
    expect(half?.matches).toBeGreaterThanOrEqual(10);

    await expireClaims(dataDir);
    const again = await ingest(dataDir);
    expect(again.code, again.stderr).toBe(0);
    expect(await state(dataDir, profileId)).toEqual({
      ...complete,
      deliveries: listed,
      distinct_deliveries: listed,
    });
  });
});
